import Foundation

/// The outcome of a commit that has been sent and finished but is known to be durable only once the database
/// answers something sent after it (PostgreSQL: a statement outside `BEGIN` commits at the Sync that follows
/// it, and any answer to a later statement on the same connection comes after that commit).
///
/// The store settles it when the next commit's first statement is answered on that connection, so the
/// confirmation costs the commit chain no round trip of its own; ``AsyncGroupCommitWriter`` answers the commit's
/// requests when it is settled, and asks for the probe (``settleByProbe()``) when no later statement came.
/// Settled once: later settlements are ignored, and every callback runs once, outside the lock.
package final class CommitConfirmation: @unchecked Sendable {
    /// Confirms the commit by a round trip of its own; throws when its outcome is unknown.
    package typealias Probe = @Sendable () async throws -> Void

    private let lock = NSLock()
    private var outcome: Result<Void, any Error>?
    private var callbacks: [@Sendable (Result<Void, any Error>) -> Void] = []
    /// Whether a probe is on its way.
    private var probing = false
    private let probe: Probe

    package init(probe: @escaping Probe) {
        self.probe = probe
    }

    /// Whether it is settled yet.
    package var isSettled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return outcome != nil
    }

    /// Settles it with `result`, unless it is settled already, and runs the callbacks.
    package func settle(_ result: Result<Void, any Error>) {
        lock.lock()
        guard outcome == nil else {
            lock.unlock()
            return
        }
        outcome = result
        let waiting = callbacks
        callbacks = []
        lock.unlock()
        for callback in waiting { callback(result) }
    }

    /// Runs `callback` with the outcome once it is settled: at once when it is already.
    package func whenSettled(_ callback: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        lock.lock()
        guard let outcome else {
            callbacks.append(callback)
            lock.unlock()
            return
        }
        lock.unlock()
        callback(outcome)
    }

    /// Settles it by the probe unless it is settled already (or a probe is on its way: then by that one);
    /// returns once it is settled.
    package func settleByProbe() async {
        guard let inFlight = claimProbe() else { return }
        if inFlight {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                whenSettled { _ in continuation.resume() }
            }
            return
        }
        await run(probe)
    }

    /// Settles it by `probe`, a probe already sent (so ahead of whatever its sender sends next), in a task of its
    /// own; ``settleByProbe()`` then waits for it instead of sending another.
    package func settle(byProbeSent probe: @escaping Probe) {
        lock.lock()
        guard outcome == nil, !probing else {
            lock.unlock()
            return
        }
        probing = true
        lock.unlock()
        Task { await run(probe) }
    }

    /// Whether a probe was on its way already (claiming it otherwise); `nil` once settled.
    private func claimProbe() -> Bool? {
        lock.lock()
        defer { lock.unlock() }
        guard outcome == nil else { return nil }
        defer { probing = true }
        return probing
    }

    private func run(_ probe: Probe) async {
        do {
            try await probe()
            settle(.success(()))
        } catch {
            settle(.failure(error))
        }
    }
}
