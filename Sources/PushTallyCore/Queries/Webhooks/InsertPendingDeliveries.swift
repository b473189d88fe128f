extension Queries {
    /// Stores one pending delivery per message and endpoint it goes to, due at once, in one statement.
    package struct InsertPendingDeliveries: StoreQuery {
        package let queued: [QueuedMessage]

        package init(_ queued: [QueuedMessage]) { self.queued = queued }

        /// How many deliveries it stores.
        package var count: Int { queued.reduce(0) { $0 + $1.endpointIDs.count } }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO webhook_deliveries (message_id, endpoint_id, status, created_at, next_attempt_at)
            SELECT c0, c1, 'pending', c2, c2 FROM \(dialect.zipped([.text, .text, .integer]))
            """
        }

        package var values: [QueryValue] {
            let pairs = queued.flatMap { item in item.endpointIDs.map { (message: item.message, endpoint: $0) } }
            return [.texts(pairs.map(\.message.id)), .texts(pairs.map(\.endpoint)), .integers(pairs.map(\.message.createdAtMillis))]
        }
    }
}
