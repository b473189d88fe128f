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

    /// Wraps a run of back-to-back commits (everything that queues while the committing task lives), so a
    /// resource can be taken once for the run instead of once per commit (PostgreSQL: a pooled connection,
    /// whose lease and return cost more than the commit's own work). It must call `commits` at most once;
    /// when it does not (the resource could not be had), the writer commits without it.
    package typealias Session = @Sendable (_ commits: @escaping @Sendable () async -> Void) async -> Void

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
    private let session: Session?

    package init(highWaterMark: Int, session: Session? = nil, flush: @escaping Flush) {
        self.machine = WriterStateMachine(highWaterMark: highWaterMark)
        self.session = session
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
        guard let session else { return await commitQueued() }
        let ran = Ran()
        await session {
            guard ran.claim() else { return }
            await self.commitQueued()
        }
        if ran.claim() { await commitQueued() }
    }

    /// Whether the session's run of commits has started: whoever claims it first runs it, so commits never
    /// overlap, even if a session called its closure twice or after the writer went on without it.
    private final class Ran: @unchecked Sendable {
        // Guards `done`.
        private let lock = NSLock()
        private var done = false

        func claim() -> Bool {
            lock.withLock {
                defer { done = true }
                return !done
            }
        }
    }

    private func commitQueued() async {
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
