import PushTallyCore

extension Queries {
    /// Forgets every undated day, after a rebuild counted each raw event into its own day's rows.
    struct ClearUndatedDays: StoreQuery {
        func sql(_ dialect: SQLDialect) -> String { "DELETE FROM undated_days" }

        var values: [QueryValue] { [] }
    }
}
