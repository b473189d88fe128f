import PushTallyCore

extension Queries {
    /// Waits for the advisory lock `key` and holds it until the transaction ends.
    struct AdvisoryTransactionLock: StoreQuery {
        let key: Int64

        func sql(_ dialect: SQLDialect) -> String { "SELECT pg_advisory_xact_lock(?)" }

        var values: [QueryValue] { [.integer(key)] }
    }
}
