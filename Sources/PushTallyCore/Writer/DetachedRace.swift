import Foundation

/// Awaits work that may never end (a statement sent to a database that stopped answering, a client library's
/// promise that is never completed) without being bound to it: the work runs in a task of its own, and its
/// caller resumes at the first of the work's result, a deadline, or its own cancellation.
///
/// A task group cannot do this: leaving a group awaits every child, so a child that never ends holds its
/// caller for good. Here the work is cancelled and left to end on its own; whatever it returns later is dropped.
package enum DetachedRace {
    /// Runs `work` and returns its result. After `timeout`, `onDeadline` decides: an error ends the wait with
    /// it (and cancels `work`), `nil` keeps waiting for `work` (say, it already passed the step the deadline
    /// was for). Cancelling the caller cancels `work` and ends the wait with `CancellationError`.
    package static func run<Value: Sendable>(
        timeout: Duration, onDeadline: @escaping @Sendable () -> (any Error)?,
        _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let race = Outcome<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                race.await(continuation)
                let worker = Task {
                    do {
                        race.resolve(.success(try await work()))
                    } catch {
                        race.resolve(.failure(error))
                    }
                }
                let timer = Task {
                    do { try await Task.sleep(for: timeout) } catch { return }
                    if let error = onDeadline() { race.resolve(.failure(error)) }
                }
                race.cancelOnResolve(worker, timer)
            }
        } onCancel: {
            race.resolve(.failure(CancellationError()))
        }
    }

    /// The first outcome of a race, delivered once to the waiting continuation, whichever side comes first.
    private final class Outcome<Value: Sendable>: @unchecked Sendable {
        // Guards everything below it.
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Value, any Error>?
        private var result: Result<Value, any Error>?
        private var tasks: [Task<Void, Never>] = []

        func await(_ continuation: CheckedContinuation<Value, any Error>) {
            lock.lock()
            guard let result else {
                self.continuation = continuation
                return lock.unlock()
            }
            lock.unlock()
            continuation.resume(with: result)
        }

        func cancelOnResolve(_ worker: Task<Void, Never>, _ timer: Task<Void, Never>) {
            lock.lock()
            let resolved = result != nil
            if !resolved { tasks = [worker, timer] }
            lock.unlock()
            if resolved {
                worker.cancel()
                timer.cancel()
            }
        }

        func resolve(_ outcome: Result<Value, any Error>) {
            lock.lock()
            guard result == nil else { return lock.unlock() }
            result = outcome
            let waiting = continuation
            continuation = nil
            let running = tasks
            tasks = []
            lock.unlock()
            waiting?.resume(with: outcome)
            for task in running { task.cancel() }
        }
    }
}
