import PushTallyCore

extension Queries {
    /// Copies a ledger table's rows into its rollup twin, the columns named (a column added to a rollup table
    /// later may stand elsewhere in its twin): where a rebuild starts from, before it counts the raw events.
    struct CopyLedgerIntoRollup: StoreQuery {
        let rollup: String
        let ledger: String
        /// The ledger's column names, comma-separated.
        let columns: String

        func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO \(rollup) (\(columns)) SELECT \(columns) FROM \(ledger)"
        }

        var values: [QueryValue] { [] }
    }
}
