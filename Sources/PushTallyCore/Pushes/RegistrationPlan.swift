/// What a registration did.
public enum RegistrationOutcome: Sendable, Equatable {
    case created
    case updated
}

/// What registering a push does to what is stored: the one rule both engines apply, in the transaction
/// that read the push's current `sent_at`.
///
/// A registration is idempotent (absolute totals, the same call twice leaves the same state); `sent_at`,
/// once set, never moves, since rollups and latency depend on it.
package struct RegistrationPlan: Sendable, Equatable {
    package var outcome: RegistrationOutcome
    /// `sent_at` has just become known: the push's pending timing is settled against it, in the same transaction.
    package var settleTimingAt: Int64?

    /// - Parameter stored: the push's stored `sent_at`: `nil` when the push is not registered, `.some(nil)` when
    ///   it is registered without one.
    /// - Throws: ``StoreError/sentAtImmutable(pushID:current:)`` when `sent_at` would move.
    package init(_ push: PushRegistration, stored: Int64??) throws(StoreError) {
        let current = stored ?? nil
        if let current, let requested = push.sentAtMillis, requested != current {
            throw StoreError.sentAtImmutable(pushID: push.pushID, current: current)
        }
        outcome = stored == nil ? .created : .updated
        settleTimingAt = current == nil ? push.sentAtMillis : nil
    }

    /// The campaign to register a push with when sends arrive for it first; `nil` when it is registered already.
    /// - Throws: ``StoreError/pushNotRegistered(pushID:)`` when it is not and the batch names no campaign.
    package static func campaign(forSends batch: SendBatch, registered: Bool) throws(StoreError) -> String? {
        if registered { return nil }
        guard let campaign = batch.campaign else { throw StoreError.pushNotRegistered(pushID: batch.pushID) }
        return campaign
    }
}

extension SendCounts {
    /// The failure rows a sender's counts replace theirs with: reasons with a count, in reason order.
    package var failureRows: [(reason: String, count: Int64)] {
        failed.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
