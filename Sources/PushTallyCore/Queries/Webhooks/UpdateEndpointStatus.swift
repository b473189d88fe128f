extension Queries {
    /// Sets an endpoint's status after an attempt. A disabled endpoint stays disabled: only a 410 sets that, and
    /// only deleting the endpoint undoes it.
    package struct UpdateEndpointStatus: StoreQuery {
        package let endpointID: String
        package let status: WebhookEndpointStatus

        package init(endpointID: String, status: WebhookEndpointStatus) { (self.endpointID, self.status) = (endpointID, status) }

        package func sql(_ dialect: SQLDialect) -> String {
            "UPDATE webhooks SET status = ? WHERE id = ? AND status != 'disabled' AND status != ?"
        }

        package var values: [QueryValue] { [.text(status.rawValue), .text(endpointID), .text(status.rawValue)] }
    }
}
