import PushTallyCore

extension Queries {
    /// Lists `days` as undated: their rollup rows no longer hold exactly what their events count, so they fold
    /// from their events (``DatedShards``). In day order, so concurrent writers take the rows' locks alike.
    struct MarkDaysUndated: StoreQuery {
        let days: [Int64]

        func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO undated_days (day) SELECT unnest(?::bigint[]) ORDER BY 1 ON CONFLICT DO NOTHING"
        }

        var values: [QueryValue] { [.integers(days.sorted())] }
    }
}
