import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import PushTallyCore

/// Ends the wait for work on a connection when the connection closes, whether or not its statements ever
/// reached it.
///
/// PostgresNIO (1.33) drops a statement written to a connection whose handlers are already gone: its promise
/// is never completed and its caller waits for good. ``PostgresConnection/ensureOpen()`` narrows that to the
/// instant between the check and the write, but a statement sent right after the server ended the session (a
/// commit's confirmation after the commit failed at its end, which closes the connection; any statement when
/// backends are being terminated) lands in that instant whenever the machine is busy. The work runs in a task
/// of its own here, and its caller resumes at the first of its result or the connection's close; the work is
/// left to end on its own.
///
/// One close callback per connection, not per use: a pooled connection serves commits for hours, and callbacks
/// on its close future are only released when it closes.
final class ConnectionCloseWatch: Sendable {
    static let shared = ConnectionCloseWatch()

    private let state = NIOLockedValueBox(State())

    private struct State {
        /// The connections whose close is watched (one callback each), and who waits on each.
        var watched: Set<ObjectIdentifier> = []
        var waiting: [ObjectIdentifier: [ObjectIdentifier: any Closable]] = [:]
    }

    /// Runs `work` on `connection` and returns its result, or throws ``StoreError/unavailable(reason:)`` once
    /// the connection closes before `work` ended. Cancelling the caller cancels `work` and ends the wait with
    /// `CancellationError`.
    func whileOpen<Value: Sendable>(
        _ connection: PostgresConnection, _ work: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let waiter = Waiter<Value>()
        let key = ObjectIdentifier(connection)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.await(continuation)
                guard watch(waiter, on: connection, key: key) else { return waiter.resolve(.failure(connectionClosed)) }
                waiter.run {
                    let outcome: Result<Value, any Error>
                    do {
                        outcome = .success(try await work(connection))
                    } catch {
                        outcome = .failure(error)
                    }
                    self.state.withLockedValue { state in _ = state.waiting[key]?.removeValue(forKey: ObjectIdentifier(waiter)) }
                    waiter.resolve(outcome)
                }
            }
        } onCancel: {
            waiter.cancel()
            waiter.resolve(.failure(CancellationError()))
        }
    }

    /// Registers `waiter`; `false` when the connection has closed already.
    private func watch(_ waiter: any Closable, on connection: PostgresConnection, key: ObjectIdentifier) -> Bool {
        let (open, first) = state.withLockedValue { state -> (Bool, Bool) in
            guard !connection.isClosed else { return (false, false) }
            state.waiting[key, default: [:]][ObjectIdentifier(waiter)] = waiter
            return (true, state.watched.insert(key).inserted)
        }
        // A close future already completed runs the callback at once, which answers the waiter just added.
        if first { connection.closeFuture.whenComplete { _ in self.closed(key) } }
        return open
    }

    /// Closes `connection` for a reason its users are about to give (a session that can no longer write):
    /// their waits are left to their own error rather than ended by the close.
    func close(_ connection: PostgresConnection) async {
        let key = ObjectIdentifier(connection)
        state.withLockedValue { state in _ = state.waiting.removeValue(forKey: key) }
        try? await connection.close()
    }

    private func closed(_ key: ObjectIdentifier) {
        let waiters = state.withLockedValue { state in
            state.watched.remove(key)
            return state.waiting.removeValue(forKey: key).map { Array($0.values) } ?? []
        }
        for waiter in waiters { waiter.closed() }
    }
}

private let connectionClosed = StoreError.unavailable(reason: "the connection to PostgreSQL closed")

/// A wait the close of its connection ends.
private protocol Closable: AnyObject, Sendable {
    func closed()
}

/// One caller's wait, resumed once by whichever side comes first.
private final class Waiter<Value: Sendable>: Closable, @unchecked Sendable {
    // Guards everything below it.
    private let lock = NIOLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var done = false
    private var task: Task<Void, Never>?
    private var cancelled = false

    func await(_ continuation: CheckedContinuation<Value, any Error>) {
        lock.withLock { self.continuation = continuation }
    }

    /// Starts the work, unless the wait was cancelled first.
    func run(_ work: @escaping @Sendable () async -> Void) {
        let task = Task { await work() }
        let cancel = lock.withLock {
            self.task = task
            return cancelled
        }
        if cancel { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }

    func closed() {
        resolve(.failure(connectionClosed))
    }

    func resolve(_ outcome: Result<Value, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<Value, any Error>? in
            guard !done else { return nil }
            done = true
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(with: outcome)
    }
}
