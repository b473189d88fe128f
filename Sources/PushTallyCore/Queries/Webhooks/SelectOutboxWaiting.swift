extension Queries {
    /// When the oldest outbox row was stored and how many events wait in the outbox (one row).
    package struct SelectOutboxWaiting: RowQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String {
            "SELECT min(created_at), \(dialect.sum("count")) FROM webhook_outbox"
        }

        package var values: [QueryValue] { [] }

        package func row(_ columns: some QueryRow) throws -> (oldest: Int64?, events: Int64) {
            (try columns.optionalInt64(0), try columns.optionalInt64(1) ?? 0)
        }
    }
}
