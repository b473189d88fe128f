extension Queries {
    /// Deletes an endpoint; returns a row when it did (its deliveries are ``DeleteEndpointDeliveries``', in the
    /// same transaction).
    package struct DeleteWebhook: StoreQuery {
        package let id: String

        package init(id: String) { self.id = id }

        package func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM webhooks WHERE id = ? RETURNING id"
        }

        package var values: [QueryValue] { [.text(id)] }
    }
}
