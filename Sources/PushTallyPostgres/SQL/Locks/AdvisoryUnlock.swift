import PushTallyCore

extension Queries {
    /// Releases the session's advisory lock `key` (``AdvisoryLock``).
    struct AdvisoryUnlock: StoreQuery {
        let key: Int64

        func sql(_ dialect: SQLDialect) -> String { "SELECT pg_advisory_unlock(?)" }

        var values: [QueryValue] { [.integer(key)] }
    }
}
