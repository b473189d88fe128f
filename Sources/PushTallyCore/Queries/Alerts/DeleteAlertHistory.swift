extension Queries {
    /// Deletes an alert's transitions.
    package struct DeleteAlertHistory: StoreQuery {
        package let alertID: String

        package init(alertID: String) { self.alertID = alertID }

        package func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM alert_history WHERE alert_id = ?"
        }

        package var values: [QueryValue] { [.text(alertID)] }
    }
}
