extension Queries {
    /// Every endpoint, oldest first, without its secret.
    package struct SelectWebhooks: RowQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String {
            "SELECT id, url, events, description, created_at, status FROM webhooks ORDER BY created_at, id"
        }

        package var values: [QueryValue] { [] }

        package func row(_ columns: some QueryRow) throws -> WebhookEndpoint {
            WebhookEndpoint(
                id: try columns.text(0), url: try columns.text(1), events: WebhookEndpoint.events(fromList: try columns.text(2)),
                description: try columns.optionalText(3), createdAtMillis: try columns.int64(4),
                status: WebhookEndpointStatus(rawValue: try columns.text(5)) ?? .active)
        }
    }
}
