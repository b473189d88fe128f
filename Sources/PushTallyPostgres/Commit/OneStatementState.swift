import NIOConcurrencyHelpers

/// What a collector's one-statement commits (``PostgresOneStatementCommit``) predict from, shared by its
/// writers: each push's `sent_at` as the transaction path last read it, and how their predictions fared.
///
/// A stale `sent_at` is never wrong, only slow: the statement's guard compares it with the row and sends the
/// commit down the transaction path, which reads it afresh and remembers it here.
package final class OneStatementState: Sendable {
    private struct State {
        /// `sent_at` by push, `nil` for a push not registered (or unknown) when last read.
        var sentAt: [String: Int64?] = [:]
        /// Commits that go straight to the transaction path before the next try, and the last such pause.
        var skip = 0
        var pause = 0
        var oneStatement = 0
        var transactions = 0
        var chained = 0
    }

    /// Pushes remembered at most; past it the memory starts afresh (pushes come and go by campaign).
    static let maximumPushes = 4096
    /// The longest pause after failed predictions: a stream of retries (whose keys are stored) would
    /// otherwise pay for a failed statement on every commit.
    static let maximumPause = 32

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// The remembered `sent_at` of every push in `pushIDs`, or `nil` when one of them is not remembered.
    func sentAt(_ pushIDs: [String]) -> [String: Int64?]? {
        state.withLockedValue { state in
            var found: [String: Int64?] = [:]
            for pushID in pushIDs {
                guard let sentAt = state.sentAt[pushID] else { return nil }
                found[pushID] = sentAt
            }
            return found
        }
    }

    /// Remembers what the transaction path read: `sentAt` holds the registered pushes of `pushIDs`.
    func remember(_ pushIDs: [String], sentAt: [String: Int64]) {
        state.withLockedValue { state in
            if state.sentAt.count + pushIDs.count > Self.maximumPushes { state.sentAt = [:] }
            for pushID in pushIDs { state.sentAt[pushID] = .some(sentAt[pushID]) }
        }
    }

    /// Whether the next commit tries one statement; counts down a pause after failed predictions.
    func shouldTry() -> Bool {
        state.withLockedValue { state in
            guard state.skip > 0 else { return true }
            state.skip -= 1
            return false
        }
    }

    /// A hit resets the pause; each miss in a row doubles it, up to ``maximumPause``.
    func record(hit: Bool) {
        state.withLockedValue { state in
            state.pause = hit ? 0 : min(Self.maximumPause, max(1, state.pause * 2))
            state.skip = state.pause
        }
    }

    /// Counts a committed group commit by the path it took; `chained`, a transaction the commit before it opened.
    func committed(inOneStatement: Bool, chained: Bool = false) {
        state.withLockedValue { state in
            if inOneStatement { state.oneStatement += 1 } else { state.transactions += 1 }
            if chained { state.chained += 1 }
        }
    }

    /// Group commits so far by path: what tests and diagnostics check the fast path by.
    package var commits: (oneStatement: Int, transactions: Int) {
        state.withLockedValue { ($0.oneStatement, $0.transactions) }
    }

    /// Of the transactions, those that ran in a transaction the commit before them opened (`COMMIT AND CHAIN`).
    package var chainedTransactions: Int {
        state.withLockedValue { $0.chained }
    }
}
