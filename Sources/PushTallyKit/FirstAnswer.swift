import Foundation

/// Whichever of several events comes first (an answer and a deadline; a finished display and the extension's
/// expiry) claims what only one of them may do: resume a continuation, record a receipt, hand content back.
final class FirstAnswer: @unchecked Sendable {
    // Guards `claimed`.
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let first = !claimed
        claimed = true
        return first
    }
}
