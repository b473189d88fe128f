import PushTallyCore

extension Queries {
    /// Dates rollup rows only from the day after the last raw event stored: rows copied in whole carry no day.
    struct UndateStoredDays: StoreQuery {
        let datedFromKey: String
        let dayMillis: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            UPDATE meta SET value = GREATEST(value::bigint,
                floor(COALESCE((SELECT max(received_at) FROM events), 0)::numeric / \(dayMillis))::bigint + 1)::text
            WHERE key = '\(datedFromKey)'
            """
        }

        var values: [QueryValue] { [] }
    }
}
