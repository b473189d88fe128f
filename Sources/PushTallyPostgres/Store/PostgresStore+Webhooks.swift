import Logging
import PostgresNIO
import PushTallyCore

extension PostgresStore: WebhookStore {
    public func createWebhook(_ endpoint: WebhookEndpoint, secret: String) async throws {
        try await write(
            """
            INSERT INTO webhooks (id, url, events, description, secret, status, created_at)
            VALUES (\(endpoint.id), \(endpoint.url), \(endpoint.eventList), \(endpoint.description), \(secret),
                    \(endpoint.status.rawValue), \(endpoint.createdAtMillis))
            """)
        subscriptions.invalidate()
    }

    public func webhooks() async throws -> [WebhookEndpoint] {
        try await query("SELECT id, url, events, description, created_at, status FROM webhooks ORDER BY created_at, id")
            .decode((String, String, String, String?, Int64, String).self).map { id, url, events, description, created, status in
                WebhookEndpoint(
                    id: id, url: url, events: WebhookEndpoint.events(fromList: events), description: description,
                    createdAtMillis: created, status: WebhookEndpointStatus(rawValue: status) ?? .active)
            }
    }

    public func deleteWebhook(id: String) async throws -> Bool {
        let logger = logger
        let deleted = try await transaction { connection in
            let rows = try await connection.run("DELETE FROM webhooks WHERE id = \(id) RETURNING id", logger: logger)
            guard !rows.isEmpty else { return false }
            try await connection.run("DELETE FROM webhook_deliveries WHERE endpoint_id = \(id)", logger: logger)
            return true
        }
        subscriptions.invalidate()
        return deleted
    }

    public func deliveries(webhookID: String, status: WebhookDeliveryStatus?, limit: Int) async throws -> [WebhookDelivery] {
        let statusText = status?.rawValue
        return try await query(
            """
            SELECT \(unescaped: WebhookSchema.deliveryColumns)
            FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
            WHERE d.endpoint_id = \(webhookID) AND (\(statusText)::text IS NULL OR d.status = \(statusText))
            ORDER BY d.created_at DESC, d.message_id DESC LIMIT \(Int64(limit))
            """
        ).decode((String, String, String, String, Int64, Int64?, String?, Int64, Int64?, Int64?, Int64?).self).map { row in
            WebhookDelivery(
                messageID: row.0, endpointID: row.1, type: WebhookEventType(rawValue: row.2) ?? .receiptDisplayed,
                status: WebhookDeliveryStatus(rawValue: row.3) ?? .pending, attempts: Int(row.4),
                lastHTTPStatus: row.5.map(Int.init), lastError: row.6, createdAtMillis: row.7, lastAttemptMillis: row.8,
                nextAttemptMillis: row.9, deliveredAtMillis: row.10)
        }
    }

    public func replay(webhookID: String, sinceMillis: Int64, now: Int64) async throws -> Int {
        try await write(
            """
            UPDATE webhook_deliveries
            SET status = 'pending', next_attempt_at = \(now), leased_until = 0, first_attempt_at = NULL, delivered_at = NULL
            WHERE endpoint_id = \(webhookID) AND created_at >= \(sinceMillis)
            RETURNING 1
            """
        ).count
    }

    public func packOutbox(now: Int64, fillMillis: Int64) async throws -> Int {
        let waiting = try await query("SELECT min(created_at), sum(count)::bigint FROM webhook_outbox").decode((Int64?, Int64?).self)
        guard let (oldest, events) = waiting.first, let oldest,
            oldest <= now - fillMillis || (events ?? 0) >= Int64(WebhookEventType.batchLimit)
        else { return 0 }
        let logger = logger
        let queued = try await transaction { connection in
            // SKIP LOCKED: rows another collector is packing right now are its to pack.
            let rows = try await connection.run(
                "SELECT seq, type, count, items FROM webhook_outbox ORDER BY seq LIMIT 1000 FOR UPDATE SKIP LOCKED",
                logger: logger
            ).decode((Int64, String, Int64, String).self)
            guard !rows.isEmpty else { return 0 }
            let outbox = try await PostgresOutbox.outbox(on: connection, logger: logger)
            let packed = outbox.pack(
                rows.compactMap { seq, type, count, items in
                    WebhookEventType(rawValue: type).map { OutboxRow(type: $0, count: Int(count), items: items) }
                }, at: now)
            try await connection.run("DELETE FROM webhook_outbox WHERE seq = ANY(\(rows.map(\.0))::bigint[])", logger: logger)
            return try await PostgresOutbox.queue(packed, on: connection, logger: logger)
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return queued
    }

    public func claimDeliveries(now: Int64, leaseMillis: Int64, limit: Int) async throws -> [ClaimedDelivery] {
        // One statement: due rows are locked as they are picked, SKIP LOCKED leaves rows another collector is
        // claiming at this instant to it, and the lease keeps them from every collector until it is over.
        try await write(
            """
            WITH due AS (
                SELECT d.message_id, d.endpoint_id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.endpoint_id
                WHERE d.status = 'pending' AND d.next_attempt_at <= \(now) AND d.leased_until <= \(now) AND w.status != 'disabled'
                ORDER BY d.next_attempt_at LIMIT \(Int64(limit))
                FOR UPDATE OF d SKIP LOCKED
            ), claimed AS (
                UPDATE webhook_deliveries d SET leased_until = \(now + leaseMillis)
                FROM due WHERE d.message_id = due.message_id AND d.endpoint_id = due.endpoint_id
                RETURNING d.message_id, d.endpoint_id, d.attempts, d.first_attempt_at, d.leased_until
            )
            SELECT c.message_id, c.endpoint_id, w.url, w.secret, m.body, c.attempts, c.first_attempt_at, c.leased_until
            FROM claimed c JOIN webhooks w ON w.id = c.endpoint_id JOIN webhook_messages m ON m.id = c.message_id
            """
        ).decode((String, String, String, String, String, Int64, Int64?, Int64).self).map { row in
            ClaimedDelivery(
                messageID: row.0, endpointID: row.1, url: row.2, secret: row.3, body: row.4, attempts: Int(row.5),
                firstAttemptMillis: row.6, leasedUntilMillis: row.7)
        }
    }

    public func recordAttempts(_ attempts: [RecordedAttempt]) async throws {
        guard !attempts.isEmpty else { return }
        let logger = logger
        // Endpoint rows in one order, so two collectors recording at once never wait on each other in a cycle.
        let sorted = attempts.sorted { ($0.delivery.endpointID, $0.delivery.messageID) < ($1.delivery.endpointID, $1.delivery.messageID) }
        try await transaction { connection in
            for attempt in sorted {
                let (update, now, delivery) = (attempt.update, attempt.atMillis, attempt.delivery)
                let deliveredAt: Int64? = update.status == .delivered ? now : nil
                let httpStatus = update.httpStatus.map(Int64.init)
                let stored = try await connection.run(
                    """
                    UPDATE webhook_deliveries SET status = \(update.status.rawValue), attempts = attempts + 1,
                        last_status = \(httpStatus), last_error = \(update.error), first_attempt_at = \(update.firstAttemptMillis),
                        last_attempt_at = \(now), next_attempt_at = \(update.nextAttemptMillis), leased_until = 0,
                        delivered_at = \(deliveredAt)
                    WHERE message_id = \(delivery.messageID) AND endpoint_id = \(delivery.endpointID)
                        AND leased_until = \(delivery.leasedUntilMillis)
                    RETURNING 1
                    """, logger: logger)
                // Replayed or re-claimed meanwhile: that outcome belongs to the newer attempt.
                guard !stored.isEmpty else { continue }
                if let status = update.endpointStatus?.rawValue {
                    // A disabled endpoint stays disabled: only a 410 sets that, and only deleting it undoes it.
                    try await connection.run(
                        """
                        UPDATE webhooks SET status = \(status)
                        WHERE id = \(delivery.endpointID) AND status != 'disabled' AND status != \(status)
                        """, logger: logger)
                }
            }
        }
        if attempts.contains(where: { $0.update.endpointStatus == .disabled }) { subscriptions.invalidate() }
    }

    public func pruneDeliveries(createdBefore cutoffMillis: Int64) async throws -> Int {
        let logger = logger
        return try await transaction { connection in
            let pruned = try await connection.run(
                "DELETE FROM webhook_deliveries WHERE status != 'pending' AND created_at < \(cutoffMillis) RETURNING 1",
                logger: logger
            ).count
            try await connection.run(
                """
                DELETE FROM webhook_messages m
                WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.message_id = m.id)
                """, logger: logger)
            return pruned
        }
    }

    public func undelivered() async throws -> (count: Int, oldestMillis: Int64?) {
        let rows = try await query(
            """
            SELECT count(*)::bigint, min(d.created_at) FROM webhook_deliveries d JOIN webhooks w ON w.id = d.endpoint_id
            WHERE d.status = 'pending' AND w.status != 'disabled'
            """
        ).decode((Int64, Int64?).self)
        return rows.first.map { (Int($0.0), $0.1) } ?? (0, nil)
    }
}
