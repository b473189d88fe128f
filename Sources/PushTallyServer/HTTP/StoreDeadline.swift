import PushTallyCore

/// Bounds how long a request outside ingest waits on the store, so a database that stopped answering (frozen,
/// a network path that drops packets) is a `503` with `Retry-After`, not a request that waits for as long as
/// the database does. The work is left behind when the bound passes; on PostgreSQL, cancelling it closes the
/// connection it waits on. Ingest has bounds of its own (the writer's commit timeout and watchdog).
public struct StoreDeadlines: Sendable, Equatable {
    /// A token check: one indexed read. It also stands before ingest under `--require-ingest-key`.
    public var authorization: Duration
    /// A report or a registration: reads of rollups, writes of a batch of pushes.
    public var request: Duration
    /// A `/metrics` scrape's reads, under Prometheus's default scrape timeout of 10 s.
    public var scrape: Duration

    /// The bounds `serve` uses by default: a token check and a scrape 5 s, a report or a registration 30 s.
    public init(authorization: Duration = .seconds(5), request: Duration = .seconds(30), scrape: Duration = .seconds(5)) {
        self.authorization = authorization
        self.request = request
        self.scrape = scrape
    }

    /// The bounds for a `request` bound (`serve --store-timeout`): a token check and a scrape get a sixth of
    /// it, and never less than the defaults' 5 s, since each is one small read.
    public init(request: Duration) {
        let short = max(.seconds(5), request / 6)
        self.init(authorization: short, request: request, scrape: short)
    }
}

enum StoreDeadline {
    /// `work`'s result, or ``StoreError/unavailable(reason:)`` once `limit` has passed without one.
    static func run<Value: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await DetachedRace.run(
            timeout: limit, onDeadline: { StoreError.unavailable(reason: "the database did not answer within \(limit)") }, work)
    }
}
