extension Queries {
    /// Leases the deliveries due now, oldest due first, and returns what sending each takes.
    ///
    /// One statement on both engines. PostgreSQL locks the due rows as it picks them and skips rows another
    /// collector is claiming at this instant; the lease then keeps them from every collector until it is over.
    /// SQLite has one writer, so nothing else claims meanwhile.
    package struct ClaimDeliveries: RowQuery {
        package let now: Int64
        package let leaseMillis: Int64
        package let limit: Int

        package init(now: Int64, leaseMillis: Int64, limit: Int) {
            (self.now, self.leaseMillis, self.limit) = (now, leaseMillis, limit)
        }

        package func sql(_ dialect: SQLDialect) -> String {
            let due = """
                WITH due AS (
                    SELECT d.message_id, d.endpoint_id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.endpoint_id
                    WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND d.leased_until <= ? AND w.status != 'disabled'
                    ORDER BY d.next_attempt_at LIMIT ?
                """
            switch dialect {
            case .postgres:
                return """
                    \(due)
                        FOR UPDATE OF d SKIP LOCKED
                    ), claimed AS (
                        UPDATE webhook_deliveries d SET leased_until = ?
                        FROM due WHERE d.message_id = due.message_id AND d.endpoint_id = due.endpoint_id
                        RETURNING d.message_id, d.endpoint_id, d.attempts, d.first_attempt_at, d.leased_until
                    )
                    SELECT c.message_id, c.endpoint_id, w.url, w.secret, m.body, c.attempts, c.first_attempt_at, c.leased_until
                    FROM claimed c JOIN webhooks w ON w.id = c.endpoint_id JOIN webhook_messages m ON m.id = c.message_id
                    """
            case .sqlite:
                // SQLite's RETURNING reads only the updated table, so the endpoint and message come by subquery.
                return """
                    \(due)
                    )
                    UPDATE webhook_deliveries SET leased_until = ?
                    WHERE (message_id, endpoint_id) IN (SELECT message_id, endpoint_id FROM due)
                    RETURNING message_id, endpoint_id,
                        (SELECT w.url FROM webhooks w WHERE w.id = webhook_deliveries.endpoint_id),
                        (SELECT w.secret FROM webhooks w WHERE w.id = webhook_deliveries.endpoint_id),
                        (SELECT m.body FROM webhook_messages m WHERE m.id = webhook_deliveries.message_id),
                        attempts, first_attempt_at, leased_until
                    """
            }
        }

        package var values: [QueryValue] { [.integer(now), .integer(now), .integer(Int64(limit)), .integer(now + leaseMillis)] }

        package func row(_ columns: some QueryRow) throws -> ClaimedDelivery {
            ClaimedDelivery(
                messageID: try columns.text(0), endpointID: try columns.text(1), url: try columns.text(2),
                secret: try columns.text(3), body: try columns.text(4), attempts: Int(try columns.int64(5)),
                firstAttemptMillis: try columns.optionalInt64(6), leasedUntilMillis: try columns.int64(7))
        }
    }
}
