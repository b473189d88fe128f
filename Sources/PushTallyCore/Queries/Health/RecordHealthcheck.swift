extension Queries {
    /// Writes the health check's one row, stamped with when it was written, so `/healthz` knows a durable write
    /// commits.
    package struct RecordHealthcheck: StoreQuery {
        package let checkedAt: Int64

        package init(checkedAt: Int64) { self.checkedAt = checkedAt }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO healthcheck (id, checked_at) VALUES (1, ?)
            ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at
            """
        }

        package var values: [QueryValue] { [.integer(checkedAt)] }
    }
}
