import Foundation

/// Group commit for a store whose commit is async network I/O (PostgreSQL): the policy of
/// ``GroupCommitWriter`` (``WriterStateMachine``: everything queued goes in the next transaction, a
/// submitter resumes only after its transaction committed), run by a task that exists while there is work.
///
/// ``GroupCommitWriter``'s dedicated thread is right for SQLite, whose commit blocks on fsync. For a commit
/// that is a chain of awaited round trips it only adds hops: a receipt woke the writer thread, which started
/// a task and slept on a semaphore until the task woke it again. Here the request hands its job straight to
/// the committing task.
package final class AsyncGroupCommitWriter<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    /// Called once, from the committing task, with the commit's outcome for one submission.
    package typealias Completion = @Sendable (Result<Output, any Error>) -> Void

    /// Commits a batch of inputs in one transaction, returning one output per input in order.
    package typealias Flush = @Sendable ([Input]) async throws -> [Output]

    private struct Job: Sendable {
        let input: Input
        let complete: Completion
    }

    // Guards everything below it.
    private let lock = NSLock()
    private var machine: WriterStateMachine<Job>
    /// Whether a committing task is running; at most one is, so commits never overlap.
    private var committing = false
    /// `close()` calls waiting for the committing task to finish.
    private var closeWaiters = 0
    private let finished = DispatchSemaphore(value: 0)
    private let flush: Flush

    package init(highWaterMark: Int, flush: @escaping Flush) {
        self.machine = WriterStateMachine(highWaterMark: highWaterMark)
        self.flush = flush
    }

    /// Queues `input` and calls `complete` once its transaction committed or failed, or at once when the
    /// queue refuses it.
    package func submit(_ input: Input, events: Int, complete: @escaping Completion) {
        lock.lock()
        let action = machine.submit(Job(input: input, complete: complete), events: events)
        let start = action == .enqueued && !committing
        if start { committing = true }
        lock.unlock()
        switch action {
        case .enqueued:
            if start { Task { await self.commitWhileQueued() } }
        case .overloaded: complete(.failure(WriterError.overloaded))
        case .closed: complete(.failure(WriterError.closed))
        }
    }

    /// Number of events waiting for the next commit.
    package var queuedEvents: Int {
        lock.lock()
        defer { lock.unlock() }
        return machine.queuedEvents
    }

    /// Stops taking submissions and blocks until everything already queued has been committed. Call it from
    /// a thread that may block (see `PushTallyStore.shutdown()`): the commit needs the cooperative pool.
    package func close() {
        lock.lock()
        machine.close()
        let wait = committing
        if wait { closeWaiters += 1 }
        lock.unlock()
        if wait { finished.wait() }
    }

    private func commitWhileQueued() async {
        while let jobs = takeQueued() {
            // Plain loops for the reason given in `GroupCommitWriter.commit`.
            var inputs: [Input] = []
            inputs.reserveCapacity(jobs.count)
            for index in jobs.indices { inputs.append(jobs[index].input) }
            do {
                let outputs = try await flush(inputs)
                for index in 0..<min(jobs.count, outputs.count) { jobs[index].complete(.success(outputs[index])) }
            } catch {
                for job in jobs { job.complete(.failure(error)) }
            }
        }
    }

    /// Everything queued, or `nil` when nothing is, in which case the committing task ends (and wakes `close()`).
    private func takeQueued() -> [Job]? {
        lock.lock()
        if case .flush(let jobs) = machine.next() {
            lock.unlock()
            return jobs
        }
        committing = false
        let waiters = closeWaiters
        closeWaiters = 0
        lock.unlock()
        for _ in 0..<waiters { finished.signal() }
        return nil
    }
}
