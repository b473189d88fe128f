import PushTallyCore

extension Queries {
    /// Creates the table `name` of a day's raw events, with the parent's columns, not yet attached.
    struct CreateDayPartition: StoreQuery {
        let name: String

        func sql(_ dialect: SQLDialect) -> String { "CREATE TABLE \(name) (LIKE events INCLUDING DEFAULTS)" }

        var values: [QueryValue] { [] }
    }
}
