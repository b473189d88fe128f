extension Queries {
    /// Deletes the messages no delivery refers to any more.
    package struct DeleteUndeliveredMessages: StoreQuery {
        package init() {}

        package func sql(_ dialect: SQLDialect) -> String {
            """
            DELETE FROM webhook_messages
            WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.message_id = webhook_messages.id)
            """
        }

        package var values: [QueryValue] { [] }
    }
}
