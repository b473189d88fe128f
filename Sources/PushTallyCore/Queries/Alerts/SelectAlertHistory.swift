extension Queries {
    /// An alert's latest transitions, newest first.
    package struct SelectAlertHistory: RowQuery {
        package let alertID: String
        package let limit: Int

        package init(alertID: String, limit: Int) { (self.alertID, self.limit) = (alertID, limit) }

        /// SQLite breaks a tie between transitions at the same instant by insertion order, newest first.
        package func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT alert_id, state, at, value, detail FROM alert_history WHERE alert_id = ?
            ORDER BY at DESC\(dialect == .sqlite ? ", rowid DESC" : "") LIMIT ?
            """
        }

        package var values: [QueryValue] { [.text(alertID), .integer(Int64(limit))] }

        package func row(_ columns: some QueryRow) throws -> AlertTransition {
            AlertTransition(
                alertID: try columns.text(0), state: AlertState(rawValue: try columns.text(1)) ?? .ok, atMillis: try columns.int64(2),
                value: try columns.optionalDouble(3), detail: try columns.optionalText(4))
        }
    }
}
