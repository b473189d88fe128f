import GRDB
import PushTallyCore

extension SQLiteStore: WebhookStore {
    public func createWebhook(_ endpoint: WebhookEndpoint, secret: String) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO webhooks (id, url, events, description, secret, status, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    endpoint.id, endpoint.url, endpoint.eventList, endpoint.description, secret, endpoint.status.rawValue,
                    endpoint.createdAtMillis,
                ])
        }
    }

    public func webhooks() async throws -> [WebhookEndpoint] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, url, events, description, created_at, status FROM webhooks ORDER BY created_at, id"
            ).map { row in
                WebhookEndpoint(
                    id: row[0], url: row[1], events: WebhookEndpoint.events(fromList: row[2]), description: row[3],
                    createdAtMillis: row[4], status: WebhookEndpointStatus(rawValue: row[5]) ?? .active)
            }
        }
    }

    public func deleteWebhook(id: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM webhooks WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "DELETE FROM webhook_deliveries WHERE endpoint_id = ?", arguments: [id])
            return true
        }
    }

    public func deliveries(webhookID: String, status: WebhookDeliveryStatus?, limit: Int) async throws -> [WebhookDelivery] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(WebhookSchema.deliveryColumns)
                    FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
                    WHERE d.endpoint_id = ? AND (? IS NULL OR d.status = ?)
                    ORDER BY d.created_at DESC, d.message_id DESC LIMIT ?
                    """,
                arguments: [webhookID, status?.rawValue, status?.rawValue, limit]
            ).map { row in
                WebhookDelivery(
                    messageID: row[0], endpointID: row[1], type: WebhookEventType(rawValue: row[2]) ?? .receiptDisplayed,
                    status: WebhookDeliveryStatus(rawValue: row[3]) ?? .pending, attempts: row[4], lastHTTPStatus: row[5],
                    lastError: row[6], createdAtMillis: row[7], lastAttemptMillis: row[8], nextAttemptMillis: row[9],
                    deliveredAtMillis: row[10])
            }
        }
    }

    public func replay(webhookID: String, sinceMillis: Int64, now: Int64) async throws -> Int {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE webhook_deliveries
                    SET status = 'pending', next_attempt_at = ?, leased_until = 0, first_attempt_at = NULL, delivered_at = NULL
                    WHERE endpoint_id = ? AND created_at >= ?
                    """,
                arguments: [now, webhookID, sinceMillis])
            return db.changesCount
        }
    }

    public func packOutbox(now: Int64, fillMillis: Int64) async throws -> Int {
        let waiting = try await read { db in
            try Row.fetchOne(db, sql: "SELECT min(created_at), sum(count) FROM webhook_outbox").map { row in
                (oldest: row[0] as Int64?, events: row[1] as Int64? ?? 0)
            }
        }
        guard let waiting, let oldest = waiting.oldest,
            oldest <= now - fillMillis || waiting.events >= WebhookEventType.batchLimit
        else { return 0 }
        // The events' JSON is built in a read, beside the writer; the write only stores the messages.
        let (packed, lastSeq) = try await read { db -> ([QueuedMessage], Int64?) in
            let stored = try Row.fetchAll(
                db, sql: "SELECT seq, type, count, items, first_event, last_event FROM webhook_outbox ORDER BY seq LIMIT 1000")
            guard let last = stored.last else { return ([], nil) }
            let outbox = try SQLiteOutbox.outbox(in: db)
            return (outbox.pack(try SQLiteOutbox.outboxRows(stored, in: db), at: now), last["seq"])
        }
        guard let lastSeq else { return 0 }
        // Only this process packs (one collector owns a SQLite file), so the rows read are still there.
        let queued = try await write { db in
            try db.execute(sql: "DELETE FROM webhook_outbox WHERE seq <= ?", arguments: [lastSeq])
            return try SQLiteOutbox.queue(packed, in: db)
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return queued
    }

    public func claimDeliveries(now: Int64, leaseMillis: Int64, limit: Int) async throws -> [ClaimedDelivery] {
        let due = try await read { db in
            try Bool.fetchOne(
                db,
                sql: "SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? AND leased_until <= ?)",
                arguments: [now, now]) ?? false
        }
        guard due else { return [] }
        return try await write { db in
            let claimed = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.message_id, d.endpoint_id, w.url, w.secret, m.body, d.attempts, d.first_attempt_at
                    FROM webhook_deliveries d
                    JOIN webhooks w ON w.id = d.endpoint_id
                    JOIN webhook_messages m ON m.id = d.message_id
                    WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND d.leased_until <= ? AND w.status != 'disabled'
                    ORDER BY d.next_attempt_at LIMIT ?
                    """,
                arguments: [now, now, limit]
            ).map { row in
                ClaimedDelivery(
                    messageID: row[0], endpointID: row[1], url: row[2], secret: row[3], body: row[4], attempts: row[5],
                    firstAttemptMillis: row[6], leasedUntilMillis: now + leaseMillis)
            }
            let lease = try db.cachedStatement(
                sql: "UPDATE webhook_deliveries SET leased_until = ? WHERE message_id = ? AND endpoint_id = ?")
            for delivery in claimed {
                try lease.execute(arguments: [now + leaseMillis, delivery.messageID, delivery.endpointID])
            }
            return claimed
        }
    }

    public func recordAttempts(_ attempts: [RecordedAttempt]) async throws {
        guard !attempts.isEmpty else { return }
        try await write { db in
            let delivery = try db.cachedStatement(sql: """
                UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_status = ?, last_error = ?,
                    first_attempt_at = ?, last_attempt_at = ?, next_attempt_at = ?, leased_until = 0,
                    delivered_at = CASE WHEN ? = 'delivered' THEN ? END
                WHERE message_id = ? AND endpoint_id = ? AND leased_until = ?
                """)
            // A disabled endpoint stays disabled: only a 410 sets that, and only deleting it undoes it.
            let endpoint = try db.cachedStatement(
                sql: "UPDATE webhooks SET status = ? WHERE id = ? AND status != 'disabled' AND status != ?")
            for attempt in attempts {
                let (update, now) = (attempt.update, attempt.atMillis)
                try delivery.execute(arguments: [
                    update.status.rawValue, update.httpStatus, update.error, update.firstAttemptMillis, now,
                    update.nextAttemptMillis, update.status.rawValue, now, attempt.delivery.messageID,
                    attempt.delivery.endpointID, attempt.delivery.leasedUntilMillis,
                ])
                // Replayed or re-claimed meanwhile: that outcome belongs to the newer attempt.
                guard db.changesCount > 0 else { continue }
                if let status = update.endpointStatus {
                    try endpoint.execute(arguments: [status.rawValue, attempt.delivery.endpointID, status.rawValue])
                }
            }
        }
    }

    public func pruneDeliveries(createdBefore cutoffMillis: Int64) async throws -> Int {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM webhook_deliveries WHERE status != 'pending' AND created_at < ?", arguments: [cutoffMillis])
            let pruned = db.changesCount
            try db.execute(sql: """
                DELETE FROM webhook_messages
                WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.message_id = webhook_messages.id)
                """)
            return pruned
        }
    }

    public func undelivered() async throws -> (count: Int, oldestMillis: Int64?) {
        try await read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*), min(d.created_at) FROM webhook_deliveries d JOIN webhooks w ON w.id = d.endpoint_id
                    WHERE d.status = 'pending' AND w.status != 'disabled'
                    """)
            return (row?[0] ?? 0, row?[1])
        }
    }
}
