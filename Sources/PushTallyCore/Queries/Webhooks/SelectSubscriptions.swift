extension Queries {
    /// The endpoints that take messages now and the event types each subscribed to, for the ``Outbox``.
    package struct SelectSubscriptions: RowQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String {
            "SELECT id, events FROM webhooks WHERE status != 'disabled'"
        }

        package var values: [QueryValue] { [] }

        package func row(_ columns: some QueryRow) throws -> WebhookSubscription {
            WebhookSubscription(endpointID: try columns.text(0), events: Set(WebhookEndpoint.events(fromList: try columns.text(1))))
        }
    }
}
