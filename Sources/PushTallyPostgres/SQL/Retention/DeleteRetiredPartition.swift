import PushTallyCore

extension Queries {
    /// Forgets a retired partition, in the transaction that drops its table.
    struct DeleteRetiredPartition: StoreQuery {
        let name: String

        func sql(_ dialect: SQLDialect) -> String { "DELETE FROM retired_events WHERE name = ?" }

        var values: [QueryValue] { [.text(name)] }
    }
}
