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
package final class GroupCommitWriter<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    /// Called once, on the writer thread, with the commit's outcome for one submission.
    package typealias Completion = @Sendable (Result<Output, any Error>) -> Void

    private struct Job {
        let input: Input
        let complete: Completion
    }

    /// Commits a batch of inputs in one transaction, returning one output per input in order.
    package typealias Flush = @Sendable ([Input]) throws -> [Output]

    private let condition = NSCondition()
    private var machine: WriterStateMachine<Job>
    private let flush: Flush
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    private let logger: Logger

    /// - Parameter logger: where a flush that breaks its contract is reported (``FlushAnswers``).
    package init(
        highWaterMark: Int, name: String = "pushtally-writer", logger: Logger = FlushAnswers.logger, flush: @escaping Flush
    ) {
        self.machine = WriterStateMachine(highWaterMark: highWaterMark)
        self.flush = flush
        self.logger = logger
        let thread = Thread { [unowned self] in self.run() }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    /// Queues `input` and calls `complete` once its transaction committed or failed, or at once when the
    /// queue refuses it. `complete` runs on the writer thread (or the caller's), so it must only hand off.
    package func submit(_ input: Input, events: Int, complete: @escaping Completion) {
        condition.lock()
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

    /// Stops taking submissions, commits everything already queued, and waits for the thread to end.
    package func close() {
        condition.lock()
        let wasRunning = thread != nil
        thread = nil
        machine.close()
        condition.signal()
        condition.unlock()
        if wasRunning { finished.wait() }
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
                condition.unlock()
                commit(jobs)
                condition.lock()
            }
        }
    }

    // Plain loops, not `map(\.input)` and `zip`: in this generic class the key path is instantiated at
    // runtime on every commit (demangling its generic arguments), and `zip` looks up its iterator's metadata,
    // both on the one writer thread.
    private func commit(_ jobs: [Job]) {
        var inputs: [Input] = []
        inputs.reserveCapacity(jobs.count)
        for index in jobs.indices { inputs.append(jobs[index].input) }
        do {
            let outputs = try flush(inputs)
            FlushAnswers.deliver(outputs, toCount: jobs.count, logger: logger) { index, outcome in jobs[index].complete(outcome) }
        } catch {
            for index in jobs.indices { jobs[index].complete(.failure(error)) }
        }
    }
}
