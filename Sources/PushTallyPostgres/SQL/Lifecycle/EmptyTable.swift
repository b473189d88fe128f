import PushTallyCore

extension Queries {
    /// Deletes every row of `table` (a rollup table, refilled by the rebuild in the same transaction).
    struct EmptyTable: StoreQuery {
        let table: String

        func sql(_ dialect: SQLDialect) -> String { "DELETE FROM \(table)" }

        var values: [QueryValue] { [] }
    }
}
