extension Queries {
    /// Stores a new alert unless its name is taken; returns its id when it stored it.
    package struct InsertAlert: StoreQuery {
        package let alert: Alert

        package init(_ alert: Alert) { self.alert = alert }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO alerts (\(WebhookSchema.alertColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (name) DO NOTHING RETURNING id
            """
        }

        package var values: [QueryValue] {
            let rule = alert.rule
            return [
                .text(alert.id), .text(rule.name), .text(rule.kind.rawValue), .integer(rule.windowMillis), .real(rule.threshold),
                .integer(rule.minSent), .integer(rule.graceMillis), .text(rule.campaign), .text(rule.app),
                .integer(alert.createdAtMillis), .text(alert.state.rawValue), .integer(alert.sinceMillis), .real(alert.value),
                .text(alert.detail), .integer(alert.evaluatedAtMillis),
            ]
        }
    }
}
