extension Queries {
    /// Every alert, oldest first (`nil` for a row of a kind or state this build does not know).
    package struct SelectAlerts: RowQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String {
            "SELECT \(WebhookSchema.alertColumns) FROM alerts ORDER BY created_at, id"
        }

        package var values: [QueryValue] { [] }

        package func row(_ columns: some QueryRow) throws -> Alert? {
            Alert(
                id: try columns.text(0), name: try columns.text(1), kind: try columns.text(2), windowMillis: try columns.int64(3),
                threshold: try columns.double(4), minSent: try columns.int64(5), graceMillis: try columns.int64(6),
                campaign: try columns.optionalText(7), app: try columns.optionalText(8), createdAtMillis: try columns.int64(9),
                state: try columns.text(10), sinceMillis: try columns.int64(11), value: try columns.optionalDouble(12),
                detail: try columns.optionalText(13), evaluatedAtMillis: try columns.optionalInt64(14))
        }
    }
}
