extension Queries {
    /// Deletes finished deliveries created before a time; returns a row per delivery deleted.
    package struct PruneDeliveries: StoreQuery {
        package let cutoffMillis: Int64

        package init(createdBefore cutoffMillis: Int64) { self.cutoffMillis = cutoffMillis }

        package func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM webhook_deliveries WHERE status != 'pending' AND created_at < ? RETURNING 1"
        }

        package var values: [QueryValue] { [.integer(cutoffMillis)] }
    }
}
