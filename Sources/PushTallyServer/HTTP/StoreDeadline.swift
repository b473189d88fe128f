import PushTallyCore

/// Bounds how long a request outside ingest waits on the store, so a database that stopped answering (frozen,
/// a network path that drops packets) is a `503` with `Retry-After`, not a request that waits for as long as
/// the database does. The work is left behind when the bound passes; on PostgreSQL, cancelling it closes the
/// connection it waits on. Ingest has bounds of its own (the writer's commit timeout and watchdog).
enum StoreDeadline {
    /// A token check: one indexed read. It also stands before ingest under `--require-ingest-key`.
    static let authorization: Duration = .seconds(5)
    /// A report or a registration: reads of rollups, writes of a batch of pushes.
    static let request: Duration = .seconds(30)
    /// A `/metrics` scrape's reads, under Prometheus's default scrape timeout of 10 s.
    static let scrape: Duration = .seconds(5)

    /// `work`'s result, or ``StoreError/unavailable(reason:)`` once `limit` has passed without one.
    static func run<Value: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await DetachedRace.run(
            timeout: limit, onDeadline: { StoreError.unavailable(reason: "the database did not answer within \(limit)") }, work)
    }
}
