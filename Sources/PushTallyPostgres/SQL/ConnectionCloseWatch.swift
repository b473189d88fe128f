import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import PushTallyCore

/// Ends the wait for a statement's answer when its connection closes, whether or not the statement ever
/// reached it.
///
/// PostgresNIO (1.33) drops a statement written to a connection whose handlers are already gone: its promise
/// is never completed and its caller waits for good. ``PostgresConnection/ensureOpen()`` narrows that to the
/// instant between the check and the write, and a commit's watchdog bounds what remains; but the commit
/// confirmation is sent right after the server may have ended the session (a commit that failed at its end
/// closes the connection), so it lands in that instant whenever the machine is busy. Its answer is awaited
/// here as a future, and its caller resumes at the first of the answer or the connection's close: no task of
/// its own, a lock and a dictionary entry per wait.
///
/// One close callback per connection, not per wait: a pooled connection serves commits for hours, and callbacks
/// on its close future are only released when it closes.
final class ConnectionCloseWatch: Sendable {
    static let shared = ConnectionCloseWatch()

    private let state = NIOLockedValueBox(State())

    private struct State {
        /// The connections whose close is watched (one callback each), and who waits on each.
        var watched: Set<ObjectIdentifier> = []
        var waiting: [ObjectIdentifier: [ObjectIdentifier: any Closable]] = [:]
    }

    /// `answer`'s value, or ``StoreError/unavailable(reason:)`` once `connection` closes before it came.
    func answer<Value: Sendable>(_ answer: EventLoopFuture<Value>, on connection: PostgresConnection) async throws -> Value {
        let waiter = Waiter<Value>()
        let key = ObjectIdentifier(connection)
        return try await withCheckedThrowingContinuation { continuation in
            waiter.await(continuation)
            guard watch(waiter, on: connection, key: key) else { return waiter.resolve(.failure(connectionClosed)) }
            answer.whenComplete { outcome in
                self.state.withLockedValue { state in _ = state.waiting[key]?.removeValue(forKey: ObjectIdentifier(waiter)) }
                waiter.resolve(outcome)
            }
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

    func await(_ continuation: CheckedContinuation<Value, any Error>) {
        lock.withLock { self.continuation = continuation }
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
