import PushTallyCore

extension Queries {
    /// Detaches the day partition `name` from `events`: a catalog change, however many rows it holds.
    struct DetachDayPartition: StoreQuery {
        let name: String

        func sql(_ dialect: SQLDialect) -> String { "ALTER TABLE events DETACH PARTITION \(name)" }

        var values: [QueryValue] { [] }
    }
}
