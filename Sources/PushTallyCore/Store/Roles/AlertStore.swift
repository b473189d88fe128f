/// Alert rules, their state and history. State is stored, so a restart does not fire again what is firing.
public protocol AlertStore: Sendable {
    /// Stores a new alert. - Throws: ``StoreError/alertNameTaken(_:)`` when the name is taken.
    func createAlert(_ alert: Alert) async throws
    /// Every alert, oldest first.
    func alerts() async throws -> [Alert]
    /// Deletes an alert and its history; false when there was none.
    func deleteAlert(id: String) async throws -> Bool
    /// An alert's transitions, newest first; `nil` when there is no such alert.
    func alertHistory(id: String, limit: Int) async throws -> [AlertTransition]?
    /// Takes this interval's evaluation: true for exactly one collector per interval, however many ask.
    func claimAlertEvaluation(now: Int64, intervalMillis: Int64) async throws -> Bool
    /// Stores an evaluated alert; with a transition, records it and queues its `alert.firing` or
    /// `alert.resolved` message in the same transaction. Does nothing when the alert was deleted meanwhile.
    func recordEvaluation(_ alert: Alert, transition: AlertTransition?, at now: Int64) async throws
}
