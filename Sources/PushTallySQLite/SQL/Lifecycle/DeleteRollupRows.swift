import PushTallyCore

extension Queries {
    /// Empties one rollup table, before a rebuild refills it from its ledger twin and the raw events.
    struct DeleteRollupRows: StoreQuery {
        let table: String

        func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM \(table)"
        }

        var values: [QueryValue] { [] }
    }
}
