/// The group-commit policy, with no I/O: what the writer does next and whether a submission is taken.
///
/// The writer takes everything queued the moment it is free and commits it as one transaction. There is
/// deliberately no linger timer: a linger makes every request wait for a batch that connections answered one
/// at a time never fill, while an idle writer that starts at once keeps latency at one commit
/// (docs/PERFORMANCE.md).
struct WriterStateMachine<Job> {
    enum SubmitAction: Equatable {
        /// Queued; wake the writer.
        case enqueued
        /// The queue is past its high-water mark: answer 503 with Retry-After.
        case overloaded
        /// The writer is shutting down: answer 503.
        case closed
    }

    enum NextAction {
        /// Commit these jobs in one transaction.
        case flush([Job])
        /// Nothing queued: sleep until a submission.
        case wait
        /// Closed and drained: the writer thread ends.
        case exit
    }

    let highWaterMark: Int
    private(set) var queue: [Job] = []
    private(set) var queuedEvents = 0
    private(set) var isClosed = false

    init(highWaterMark: Int) {
        self.highWaterMark = highWaterMark
    }

    mutating func submit(_ job: Job, events: Int) -> SubmitAction {
        if isClosed { return .closed }
        // An empty queue always takes a job, so one batch larger than the mark is still served.
        if queuedEvents > 0, queuedEvents + events > highWaterMark { return .overloaded }
        queue.append(job)
        queuedEvents += events
        return .enqueued
    }

    mutating func next() -> NextAction {
        if !queue.isEmpty {
            let jobs = queue
            queue = []
            queuedEvents = 0
            return .flush(jobs)
        }
        return isClosed ? .exit : .wait
    }

    mutating func close() {
        isClosed = true
    }
}
