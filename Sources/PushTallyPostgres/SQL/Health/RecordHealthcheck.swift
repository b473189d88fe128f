import PushTallyCore

extension Queries {
    /// Writes the health check's one row, so `/healthz` knows a durable write commits.
    struct RecordHealthcheck: StoreQuery {
        let checkedAt: Int64

        func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO healthcheck (id, checked_at) VALUES (1, ?)
            ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at
            """
        }

        var values: [QueryValue] { [.integer(checkedAt)] }
    }
}
