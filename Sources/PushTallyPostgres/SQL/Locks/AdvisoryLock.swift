import PushTallyCore

extension Queries {
    /// Waits for the advisory lock `key` and holds it for the session, across transactions, until
    /// ``AdvisoryUnlock`` (or the connection closes).
    struct AdvisoryLock: StoreQuery {
        let key: Int64

        func sql(_ dialect: SQLDialect) -> String { "SELECT pg_advisory_lock(?)" }

        var values: [QueryValue] { [.integer(key)] }
    }
}
