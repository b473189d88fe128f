/// The push backend's send records (``RegistrationPlan`` is the rule every engine applies).
public protocol PushRegistry: Sendable {
    /// Registers a push or replaces its totals; the same call twice leaves the same state.
    /// - Throws: ``StoreError/sentAtImmutable(pushID:current:)`` when `sent_at` would move.
    @discardableResult
    func register(_ push: PushRegistration) async throws -> RegistrationOutcome
    /// Registers many pushes in one transaction; each succeeds or fails alone.
    func register(_ pushes: [PushRegistration]) async throws -> [Result<RegistrationOutcome, StoreError>]
    /// Adds (or, for a repeated batch id, replaces) one parallel sender's counts.
    func addSends(_ batch: SendBatch) async throws
}
