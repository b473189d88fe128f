extension Queries {
    /// Stores an alert's state after an evaluation; returns a row when the alert still exists.
    package struct UpdateAlertState: StoreQuery {
        package let alert: Alert

        package init(_ alert: Alert) { self.alert = alert }

        package func sql(_ dialect: SQLDialect) -> String {
            "UPDATE alerts SET state = ?, since = ?, value = ?, detail = ?, evaluated_at = ? WHERE id = ? RETURNING id"
        }

        package var values: [QueryValue] {
            [
                .text(alert.state.rawValue), .integer(alert.sinceMillis), .real(alert.value), .text(alert.detail),
                .integer(alert.evaluatedAtMillis), .text(alert.id),
            ]
        }
    }
}
