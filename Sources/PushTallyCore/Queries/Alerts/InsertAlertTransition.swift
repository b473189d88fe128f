extension Queries {
    /// Records a transition in an alert's history.
    package struct InsertAlertTransition: StoreQuery {
        package let alertID: String
        package let transition: AlertTransition

        package init(alertID: String, _ transition: AlertTransition) { (self.alertID, self.transition) = (alertID, transition) }

        package func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO alert_history (alert_id, at, state, value, detail) VALUES (?, ?, ?, ?, ?)"
        }

        package var values: [QueryValue] {
            [
                .text(alertID), .integer(transition.atMillis), .text(transition.state.rawValue), .real(transition.value),
                .text(transition.detail),
            ]
        }
    }
}
