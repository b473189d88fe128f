extension Queries {
    /// Stores a new endpoint with its signing secret.
    package struct InsertWebhook: StoreQuery {
        package let endpoint: WebhookEndpoint
        package let secret: String

        package init(_ endpoint: WebhookEndpoint, secret: String) { (self.endpoint, self.secret) = (endpoint, secret) }

        package func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO webhooks (id, url, events, description, secret, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
        }

        package var values: [QueryValue] {
            [
                .text(endpoint.id), .text(endpoint.url), .text(endpoint.eventList), .text(endpoint.description), .text(secret),
                .text(endpoint.status.rawValue), .integer(endpoint.createdAtMillis),
            ]
        }
    }
}
