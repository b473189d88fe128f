extension Queries {
    /// Stores (or replaces) one record's targeted and sent counts.
    package struct UpsertPushSends: StoreQuery {
        package let pushID: String
        package let batchID: String
        package let counts: SendCounts

        package init(pushID: String, batchID: String, _ counts: SendCounts) {
            (self.pushID, self.batchID, self.counts) = (pushID, batchID, counts)
        }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO push_sends (push_id, batch_id, targeted, sent) VALUES (?, ?, ?, ?)
            ON CONFLICT (push_id, batch_id) DO UPDATE SET targeted = excluded.targeted, sent = excluded.sent
            """
        }

        package var values: [QueryValue] { [.text(pushID), .text(batchID), .integer(counts.targeted), .integer(counts.sent)] }
    }
}
