import PushTallyCore

extension Queries {
    /// Takes the transaction's advisory lock on `app`'s admissions, in the two-key space under `key`, so
    /// collectors admitting names of one app take turns.
    struct LockAppAdmissions: StoreQuery {
        let key: Int32
        let app: String

        /// The two-key lock takes `integer` keys; the key binds as `bigint`, which PostgreSQL does not narrow unasked.
        func sql(_ dialect: SQLDialect) -> String { "SELECT pg_advisory_xact_lock(?::integer, hashtext(?))" }

        var values: [QueryValue] { [.integer(Int64(key)), .text(app)] }
    }
}
