import Foundation
import Logging

/// Group commit for a store whose commit is async network I/O (PostgreSQL): the policy of
/// ``GroupCommitWriter`` (``WriterStateMachine``: everything queued goes in the next transaction, a
/// submitter resumes only after its transaction committed), run by a task that exists while there is work.
///
/// ``GroupCommitWriter``'s dedicated thread is right for SQLite, whose commit blocks on fsync. For a commit
/// that is a chain of awaited round trips it only adds hops: a receipt woke the writer thread, which started
/// a task and slept on a semaphore until the task woke it again. Here the request hands its job straight to
/// the committing task.
///
/// A commit is awaited I/O that may never end, so a run of commits has a watchdog (``WriterWatchdog``): a run
/// that has not moved for its limit is given up (its requests answered ``WriterError/stalled``, its task
/// cancelled) and the next submission starts a new one. Nothing ever waits on a run given up.
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

    // Guards everything below it down to `finished`.
    private let lock = NSLock()
    private var machine: WriterStateMachine<Job>
    /// Whether a committing task is running; at most one is current, so commits never overlap (a task the
    /// watchdog gave up on may still be ending).
    private var committing = false
    /// Which run of commits is current: bumped when a run starts and when the watchdog gives one up, so a run
    /// given up never takes the queue again nor answers the jobs the watchdog already answered.
    private var generation = 0
    /// The current run's task and watchdog, to cancel them.
    private var runTask: Task<Void, Never>?
    private var watchTask: Task<Void, Never>?
    /// The jobs of the commit in flight, so the watchdog can answer them when it gives the commit up.
    private var inFlight: [Job] = []
    /// The watchdog's and `/healthz`'s view of the current run: when it last moved (started, began a commit
    /// after its first, ended one) and whether it is in a commit; `nil` without a watchdog.
    private var progress: WriterHealthState?
    /// `close()` calls waiting for the committing task to finish.
    private var closeWaiters = 0
    private let finished = DispatchSemaphore(value: 0)
    private let flush: Flush
    private let session: Session?
    private let watchdog: WriterWatchdog?
    private let logger: Logger

    /// - Parameters:
    ///   - watchdog: bounds a commit and a run's start; without one (tests of the policy alone) a commit may
    ///     take as long as its flush does.
    ///   - logger: where a flush that breaks its contract is reported (``FlushAnswers``).
    // Specialized here for the stores' ingest types: created in the store modules, the class would run generic
    // code (metadata look-ups and value-witness copies of every job) on every submission and commit.
    @_specialize(exported: true, where Input == [IncomingEvent], Output == [Bool])
    package init(
        highWaterMark: Int, watchdog: WriterWatchdog? = nil, session: Session? = nil, logger: Logger = FlushAnswers.logger,
        flush: @escaping Flush
    ) {
        self.machine = WriterStateMachine(highWaterMark: highWaterMark)
        self.watchdog = watchdog
        self.progress = watchdog.map(WriterHealthState.init)
        self.logger = logger
        self.session = session
        self.flush = flush
    }

    /// Queues `input` and calls `complete` once its transaction committed or failed, or at once when the
    /// queue refuses it.
    @_specialize(exported: true, where Input == [IncomingEvent], Output == [Bool])
    package func submit(_ input: Input, events: Int, complete: @escaping Completion) {
        lock.lock()
        let action = machine.submit(Job(input: input, complete: complete), events: events)
        var run: Int?
        if action == .enqueued && !committing {
            committing = true
            generation += 1
            run = generation
            progress?.runStarted(at: .now)
        }
        lock.unlock()
        switch action {
        case .enqueued:
            if let run { start(run) }
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

    /// Stops taking submissions and blocks until everything already queued has been committed, or until the
    /// watchdog gives the run up (then what was queued is answered 503, never acknowledged). Call it from a
    /// thread that may block (see `PushTallyStore.shutdown()`): the commit needs the cooperative pool.
    package func close() {
        lock.lock()
        machine.close()
        let wait = committing
        if wait { closeWaiters += 1 }
        lock.unlock()
        if wait { finished.wait() }
    }

    /// Whether the commit chain is moving, for `/healthz` (``WriterHealthState/health(at:)``).
    package var health: WriterHealth {
        lock.lock()
        defer { lock.unlock() }
        return progress?.health(at: .now) ?? .ok
    }

    private func start(_ run: Int) {
        let task = Task { await self.commitWhileQueued(run) }
        let watch = watchdog.map { watchdog in Task { await self.watch(run, watchdog) } }
        lock.lock()
        let current = generation == run && committing
        if current { (runTask, watchTask) = (task, watch) }
        lock.unlock()
        if !current { watch?.cancel() }
    }

    private func commitWhileQueued(_ run: Int) async {
        guard let session else { return await commitQueued(run) }
        let ran = RunClaim()
        await session {
            guard ran.claim() else { return }
            await self.commitQueued(run)
        }
        if ran.claim() { await commitQueued(run) }
    }

    private func commitQueued(_ run: Int) async {
        while let jobs = takeQueued(run) {
            // Plain loops for the reason given in `GroupCommitWriter.commit`.
            var inputs: [Input] = []
            inputs.reserveCapacity(jobs.count)
            for index in jobs.indices { inputs.append(jobs[index].input) }
            let outcome: Result<[Output], any Error>
            do {
                outcome = .success(try await flush(inputs))
            } catch {
                outcome = .failure(error)
            }
            // Given up by the watchdog meanwhile: its jobs were answered, and the queue is another run's.
            guard let jobs = finishCommit(run, committed: (try? outcome.get()) != nil) else { return }
            switch outcome {
            case .success(let outputs):
                FlushAnswers.deliver(outputs, toCount: jobs.count, logger: logger) { index, outcome in jobs[index].complete(outcome) }
            case .failure(let error):
                for job in jobs { job.complete(.failure(error)) }
            }
        }
    }

    /// Everything queued, or `nil` when nothing is (the run ends and wakes `close()`) or the run was given up.
    private func takeQueued(_ run: Int) -> [Job]? {
        lock.lock()
        guard generation == run else {
            lock.unlock()
            return nil
        }
        if case .flush(let jobs) = machine.next() {
            inFlight = jobs
            progress?.commitBegan(at: .now)
            lock.unlock()
            return jobs
        }
        committing = false
        progress?.runEnded()
        runTask = nil
        let watch = watchTask
        watchTask = nil
        let waiters = closeWaiters
        closeWaiters = 0
        lock.unlock()
        watch?.cancel()
        for _ in 0..<waiters { finished.signal() }
        return nil
    }

    /// The jobs of the commit that just ended, to answer, or `nil` when the watchdog answered them already.
    private func finishCommit(_ run: Int, committed: Bool) -> [Job]? {
        lock.lock()
        defer { lock.unlock() }
        guard generation == run else { return nil }
        let jobs = inFlight
        inFlight = []
        progress?.commitEnded(committed: committed, at: .now, runGoesOn: true)
        return jobs
    }

    /// Sleeps until the run has not moved for its limit, then gives it up; ends with the run.
    private func watch(_ run: Int, _ watchdog: WriterWatchdog) async {
        // The first commit may begin at once: looking only after the start's limit gave it that much longer.
        var wake = ContinuousClock.now + min(watchdog.startTimeout, watchdog.commitTimeout)
        while true {
            do { try await Task.sleep(until: wake, clock: .continuous) } catch { return }
            switch check(run) {
            case .ended: return
            case .moved(let due): wake = due
            case .stalled(let stall):
                // Cancelling the run makes the store close the connection the commit was on; the task may still
                // take a while to end (or never, on a reply its client library lost), but nothing waits for it.
                stall.task?.cancel()
                for job in stall.jobs { job.complete(.failure(WriterError.stalled)) }
                for _ in 0..<stall.closeWaiters { finished.signal() }
                StoreMetrics.recordStall()
                watchdog.logger.error(
                    "writer stalled; its requests were answered 503 and its connection closed",
                    metadata: ["reason": "\(stall.reason)", "requests": "\(stall.jobs.count)", "queued_events": "\(stall.queuedEvents)"])
                return
            }
        }
    }

    /// What the watchdog found on waking.
    private enum Check {
        /// The run ended, or was given up already.
        case ended
        /// The run moved since: look again at this instant.
        case moved(ContinuousClock.Instant)
        /// The run was given up: answer these, cancel its task, wake `close()`.
        case stalled(Stall)
    }

    private struct Stall {
        let jobs: [Job]
        let task: Task<Void, Never>?
        let reason: String
        let queuedEvents: Int
        let closeWaiters: Int
    }

    /// Gives the run up when it has not moved for its limit: its commit's jobs and everything queued are taken
    /// to be answered 503, and the next submission starts a new run.
    private func check(_ run: Int) -> Check {
        lock.lock()
        defer { lock.unlock() }
        guard generation == run, committing, let progress else { return .ended }
        guard let limit = progress.overdue(at: .now) else { return .moved(progress.due ?? .now + progress.startTimeout) }
        let queuedEvents = machine.queuedEvents
        let reason = progress.work?.inCommit == true
            ? "a commit of \(inFlight.count) requests did not finish within \(limit.secondsText) s"
            : "no commit started within \(limit.secondsText) s"
        var jobs = inFlight
        if case .flush(let queued) = machine.next() { jobs += queued }
        inFlight = []
        generation += 1
        committing = false
        let task = runTask
        (runTask, watchTask) = (nil, nil)
        self.progress?.gaveUp(reason, at: .now)
        let waiters = closeWaiters
        closeWaiters = 0
        return .stalled(Stall(jobs: jobs, task: task, reason: reason, queuedEvents: queuedEvents, closeWaiters: waiters))
    }
}
