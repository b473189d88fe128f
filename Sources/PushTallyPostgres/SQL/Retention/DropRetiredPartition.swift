import PushTallyCore

extension Queries {
    /// Drops a retired partition's table once its rows are folded, giving its disk space back at once.
    struct DropRetiredPartition: StoreQuery {
        let name: String

        func sql(_ dialect: SQLDialect) -> String { "DROP TABLE \(name)" }

        var values: [QueryValue] { [] }
    }
}
