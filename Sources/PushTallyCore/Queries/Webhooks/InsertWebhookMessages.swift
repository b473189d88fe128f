extension Queries {
    /// Stores messages, their bodies fixed, in one statement.
    package struct InsertWebhookMessages: StoreQuery {
        package let messages: [WebhookMessage]

        package init(_ messages: [WebhookMessage]) { self.messages = messages }

        package func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO webhook_messages (id, type, body, created_at) SELECT c0, c1, c2, c3 FROM \(dialect.zipped([.text, .text, .text, .integer]))"
        }

        package var values: [QueryValue] {
            [
                .texts(messages.map(\.id)), .texts(messages.map(\.type.rawValue)), .texts(messages.map(\.body)),
                .integers(messages.map(\.createdAtMillis)),
            ]
        }
    }
}
