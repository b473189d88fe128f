import Foundation
import Logging

/// Errors a submission to the writer can end with besides the database's own.
public enum WriterError: Error, Sendable, Equatable {
    /// The queue is past its high-water mark; the client should retry later (503 + Retry-After).
    case overloaded
    /// The store is shutting down and takes no more writes.
    case closed
    /// The commit did not end within its deadline (a database that stopped answering): its outcome is unknown,
    /// so it is not acknowledged; a retry is recognised if it did commit (``AsyncGroupCommitWriter``'s watchdog).
    case stalled
    /// The commit returned a different number of outputs than it was given inputs (a fault of the store's own):
    /// none of its submissions can be told its outcome, so all of them fail (``FlushAnswers``).
    case outputCountMismatch(inputs: Int, outputs: Int)
}

/// One dedicated thread that commits everything queued as one transaction: group commit.
///
/// A submitter suspends until the transaction holding its input has committed, so an answer sent after
/// `submit` returns is an acknowledgement of durable data. A dedicated thread (not a task) because the
/// commit blocks on fsync and must not hold a cooperative-pool thread.
///
/// A commit blocked in the kernel (a disk or a network file system that stopped completing writes) cannot
/// be cut short, but its requests need not wait with it: with a ``WriterWatchdog``, a commit in flight past
/// the watchdog's limit has its requests and everything queued behind it answered ``WriterError/stalled``
/// (503, never acknowledged: the commit may still land, and a retry is then recognised), and until it ends
/// every new submission is answered the same at once instead of queueing behind it.
package final class GroupCommitWriter<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    /// Called once, on the writer thread, with the commit's outcome for one submission.
    package typealias Completion = @Sendable (Result<Output, any Error>) -> Void

    private struct Job {
        let input: Input
        let complete: Completion
    }

    /// Commits a batch of inputs in one transaction, returning one output per input in order.
    package typealias Flush = @Sendable ([Input]) throws -> [Output]

    // Guards everything below it down to `progress`.
    private let condition = NSCondition()
    private var machine: WriterStateMachine<Job>
    private var thread: Thread?
    /// The commit in flight: its number and jobs, and whether one is; `givenUp` is the number of the last one
    /// the watchdog answered, so that commit's own answers are never sent.
    private var commitNumber = 0
    private var inFlight: [Job] = []
    private var inCommit = false
    private var givenUp = 0
    /// The watchdog's and `/healthz`'s view of the commits; `nil` without a watchdog.
    private var progress: WriterHealthState?
    private let flush: Flush
    private let finished = DispatchSemaphore(value: 0)
    private let watchdog: WriterWatchdog?
    private let timer: (any DispatchSourceTimer)?
    private let logger: Logger

    /// - Parameters:
    ///   - name: the writer thread's name, as `top -H`, `perf` and `/proc/PID/task/*/comm` show it: at most
    ///     15 bytes (``nameCurrentThread(_:)``).
    ///   - watchdog: bounds how long a commit's requests wait for it (its `commitTimeout`); without one they
    ///     wait as long as the commit takes.
    ///   - logger: where a flush that breaks its contract is reported (``FlushAnswers``).
    // Specialized here for the stores' ingest types: created in the store modules, the class would run generic
    // code (metadata look-ups and value-witness copies of every job) on every submission and commit.
    @_specialize(exported: true, where Input == [IncomingEvent], Output == [Bool])
    package init(
        highWaterMark: Int, name: String = "ingest-writer", watchdog: WriterWatchdog? = nil, logger: Logger = FlushAnswers.logger,
        flush: @escaping Flush
    ) {
        self.machine = WriterStateMachine(highWaterMark: highWaterMark)
        self.flush = flush
        self.logger = logger
        self.watchdog = watchdog
        self.progress = watchdog.map(WriterHealthState.init)
        self.timer = watchdog.map { watchdog in
            // A check a quarter of the limit apart answers a stalled commit's requests at most 1.25 limits late.
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            let quarter = (watchdog.commitTimeout / 4).components
            let interval = DispatchTimeInterval.nanoseconds(
                max(1_000_000, Int(quarter.seconds * 1_000_000_000 + quarter.attoseconds / 1_000_000_000)))
            timer.schedule(deadline: .now() + interval, repeating: interval)
            return timer
        }
        let thread = Thread { [unowned self] in
            nameCurrentThread(name)
            self.run()
        }
        self.thread = thread
        thread.start()
        timer?.setEventHandler { [weak self] in self?.check() }
        timer?.resume()
    }

    /// Queues `input` and calls `complete` once its transaction committed or failed, or at once when the
    /// queue refuses it. `complete` runs on the writer thread (or the caller's), so it must only hand off.
    @_specialize(exported: true, where Input == [IncomingEvent], Output == [Bool])
    package func submit(_ input: Input, events: Int, complete: @escaping Completion) {
        condition.lock()
        // Behind a commit the watchdog gave up on, a request would wait as long as it does.
        if givenUp == commitNumber, inCommit {
            condition.unlock()
            return complete(.failure(WriterError.stalled))
        }
        let action = machine.submit(Job(input: input, complete: complete), events: events)
        if action == .enqueued { condition.signal() }
        condition.unlock()
        switch action {
        case .enqueued: break
        case .overloaded: complete(.failure(WriterError.overloaded))
        case .closed: complete(.failure(WriterError.closed))
        }
    }

    /// Number of events waiting for the writer.
    package var queuedEvents: Int {
        condition.lock()
        defer { condition.unlock() }
        return machine.queuedEvents
    }

    /// Whether commits are moving, for `/healthz` (``WriterHealthState/health(at:)``).
    package var health: WriterHealth {
        condition.lock()
        defer { condition.unlock() }
        return progress?.health(at: .now) ?? .ok
    }

    /// Stops taking submissions, commits everything already queued, and waits for the thread to end.
    package func close() {
        condition.lock()
        let wasRunning = thread != nil
        thread = nil
        machine.close()
        condition.signal()
        condition.unlock()
        if wasRunning { finished.wait() }
        timer?.cancel()
    }

    private func run() {
        condition.lock()
        while true {
            switch machine.next() {
            case .wait:
                condition.wait()
            case .exit:
                condition.unlock()
                finished.signal()
                return
            case .flush(let jobs):
                commitNumber += 1
                let number = commitNumber
                inFlight = jobs
                inCommit = true
                progress?.commitBegan(at: .now)
                condition.unlock()
                commit(jobs, number: number)
                condition.lock()
            }
        }
    }

    // Plain loops, not `map(\.input)` and `zip`: in this generic class the key path is instantiated at
    // runtime on every commit (demangling its generic arguments), and `zip` looks up its iterator's metadata,
    // both on the one writer thread.
    private func commit(_ jobs: [Job], number: Int) {
        var inputs: [Input] = []
        inputs.reserveCapacity(jobs.count)
        for index in jobs.indices { inputs.append(jobs[index].input) }
        let outcome: Result<[Output], any Error>
        do {
            outcome = .success(try flush(inputs))
        } catch {
            outcome = .failure(error)
        }
        condition.lock()
        let answered = givenUp == number
        inFlight = []
        inCommit = false
        if case .success = outcome { progress?.commitEnded(committed: true, at: .now) } else { progress?.commitEnded(committed: false, at: .now) }
        // A commit that failed for the database's state (locked by another process, a full disk) failed at its
        // deadline; what queued behind it meanwhile would wait a deadline more for the same answer.
        var queued: [Job] = []
        if !answered, case .failure(let error) = outcome, error is any StorageUnavailableError,
            case .flush(let waiting) = machine.next()
        {
            queued = waiting
        }
        condition.unlock()
        // The watchdog answered these already.
        guard !answered else { return }
        switch outcome {
        case .success(let outputs):
            FlushAnswers.deliver(outputs, toCount: jobs.count, logger: logger) { index, outcome in jobs[index].complete(outcome) }
        case .failure(let error):
            for index in jobs.indices { jobs[index].complete(.failure(error)) }
            for index in queued.indices { queued[index].complete(.failure(error)) }
        }
    }

    /// The watchdog's look: a commit in flight past the limit has its requests and the queue answered.
    private func check() {
        guard let watchdog else { return }
        condition.lock()
        guard givenUp != commitNumber, let limit = progress?.overdue(at: .now) else {
            condition.unlock()
            return
        }
        givenUp = commitNumber
        var jobs = inFlight
        let requests = jobs.count
        inFlight = []
        if case .flush(let queued) = machine.next() { jobs += queued }
        let reason = "a commit of \(requests) requests did not finish within \(limit.secondsText) s"
        progress?.gaveUp(reason, at: .now, workGoesOn: true)
        condition.unlock()
        for job in jobs { job.complete(.failure(WriterError.stalled)) }
        StoreMetrics.recordStall()
        watchdog.logger.error(
            "writer stalled; its requests and those queued behind it were answered 503 while the commit goes on",
            metadata: ["reason": "\(reason)", "requests": "\(jobs.count)"])
    }
}
