import PushTallyCore

extension Queries {
    /// Records a detached day partition as retired, nothing of it folded yet, in the detach's transaction: a
    /// crash before its fold leaves the record for the next prune or rebuild to finish.
    struct InsertRetiredPartition: StoreQuery {
        let name: String

        func sql(_ dialect: SQLDialect) -> String { "INSERT INTO retired_events (name) VALUES (?)" }

        var values: [QueryValue] { [.text(name)] }
    }
}
