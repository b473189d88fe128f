extension Queries {
    /// How many deliveries to endpoints that take messages wait, and since when (one row).
    package struct SelectUndelivered: RowQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT count(*), min(d.created_at) FROM webhook_deliveries d JOIN webhooks w ON w.id = d.endpoint_id
            WHERE d.status = 'pending' AND w.status != 'disabled'
            """
        }

        package var values: [QueryValue] { [] }

        package func row(_ columns: some QueryRow) throws -> (count: Int, oldestMillis: Int64?) {
            (Int(try columns.int64(0)), try columns.optionalInt64(1))
        }
    }
}
