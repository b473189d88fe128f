extension Queries {
    /// Sends an endpoint's deliveries created since a time again, from now; returns a row per delivery.
    package struct ReplayDeliveries: StoreQuery {
        package let endpointID: String
        package let sinceMillis: Int64
        package let now: Int64

        package init(endpointID: String, sinceMillis: Int64, now: Int64) {
            (self.endpointID, self.sinceMillis, self.now) = (endpointID, sinceMillis, now)
        }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            UPDATE webhook_deliveries
            SET status = 'pending', next_attempt_at = ?, leased_until = 0, first_attempt_at = NULL, delivered_at = NULL
            WHERE endpoint_id = ? AND created_at >= ?
            RETURNING 1
            """
        }

        package var values: [QueryValue] { [.integer(now), .text(endpointID), .integer(sinceMillis)] }
    }
}
