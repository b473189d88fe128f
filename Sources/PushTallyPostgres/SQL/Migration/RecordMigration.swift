import PushTallyCore

extension Queries {
    /// Records a schema migration as applied, in the transaction that finishes it.
    struct RecordMigration: StoreQuery {
        let version: Int
        let name: String

        func sql(_ dialect: SQLDialect) -> String { "INSERT INTO pushtally_migrations (version, name) VALUES (?, ?)" }

        var values: [QueryValue] { [.integer(Int64(version)), .text(name)] }
    }
}
