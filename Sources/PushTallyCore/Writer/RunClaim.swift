import Foundation

/// Whether a session's run of commits has started (``AsyncGroupCommitWriter``): whoever claims it first runs it,
/// so commits never overlap, even if a session called its closure twice or after the writer went on without it.
final class RunClaim: @unchecked Sendable {
    // Guards `done`.
    private let lock = NSLock()
    private var done = false

    /// `true` for the first caller only.
    func claim() -> Bool {
        lock.withLock {
            defer { done = true }
            return !done
        }
    }
}
