import PushTallyCore

extension Queries {
    /// Copies every row of `ledger` into its live twin `rollup`, in this collector's `shard`.
    ///
    /// The ledger has the rollup's columns but `shard`; they are named (`columns`, ``SelectColumnList``) because a
    /// column added by a later migration stands after `shard` in the live table and last in the ledger.
    struct CopyLedgerIntoRollup: StoreQuery {
        let rollup: String
        let ledger: String
        let columns: String
        let shard: Int64

        func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO \(rollup) (\(columns), shard) SELECT \(columns), ? FROM \(ledger)"
        }

        var values: [QueryValue] { [.integer(shard)] }
    }
}
