import PushTallyCore

extension Queries {
    /// Whether `day`'s rollup rows hold exactly what its events count: dated from the day the meta key names on,
    /// and not listed undated. One row, `NULL` when the key is missing (read as not dated).
    struct SelectDayIsDated: StoreQuery {
        let day: Int64
        let datedFromKey: String

        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT (SELECT value FROM meta WHERE key = ?)::bigint <= ?
                AND NOT EXISTS (SELECT 1 FROM undated_days WHERE day = ?)
            """
        }

        var values: [QueryValue] { [.text(datedFromKey), .integer(day), .integer(day)] }
    }
}
