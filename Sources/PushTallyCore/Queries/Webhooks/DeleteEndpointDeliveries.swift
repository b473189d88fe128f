extension Queries {
    /// Deletes every delivery to an endpoint.
    package struct DeleteEndpointDeliveries: StoreQuery {
        package let endpointID: String

        package init(endpointID: String) { self.endpointID = endpointID }

        package func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM webhook_deliveries WHERE endpoint_id = ?"
        }

        package var values: [QueryValue] { [.text(endpointID)] }
    }
}
