import PushTallyCore

extension Queries {
    /// Locks `tables` in `mode` (`SHARE`, `SHARE ROW EXCLUSIVE`, …) until the transaction ends.
    struct LockTables: StoreQuery {
        let tables: [String]
        let mode: String

        func sql(_ dialect: SQLDialect) -> String {
            "LOCK TABLE \(tables.joined(separator: ", ")) IN \(mode) MODE"
        }

        var values: [QueryValue] { [] }
    }
}
