import Logging
import PostgresNIO
import PushTallyCore

extension PostgresStore: WebhookStore {
    public func createWebhook(_ endpoint: WebhookEndpoint, secret: String) async throws {
        try await write(Queries.InsertWebhook(endpoint, secret: secret))
        subscriptions.invalidate()
    }

    public func webhooks() async throws -> [WebhookEndpoint] {
        try await fetch(Queries.SelectWebhooks())
    }

    public func deleteWebhook(id: String) async throws -> Bool {
        let logger = logger
        let deleted = try await transaction { connection in
            guard try await connection.run(Queries.DeleteWebhook(id: id), logger: logger) > 0 else { return false }
            try await connection.run(Queries.DeleteEndpointDeliveries(endpointID: id), logger: logger)
            return true
        }
        subscriptions.invalidate()
        return deleted
    }

    public func deliveries(webhookID: String, status: WebhookDeliveryStatus?, limit: Int) async throws -> [WebhookDelivery] {
        try await fetch(Queries.SelectDeliveries(endpointID: webhookID, status: status, limit: limit))
    }

    public func replay(webhookID: String, sinceMillis: Int64, now: Int64) async throws -> Int {
        try await write(Queries.ReplayDeliveries(endpointID: webhookID, sinceMillis: sinceMillis, now: now))
    }

    public func packOutbox(now: Int64, fillMillis: Int64) async throws -> Int {
        guard let waiting = try await fetch(Queries.SelectOutboxWaiting()).first, let oldest = waiting.oldest,
            oldest <= now - fillMillis || waiting.events >= Int64(WebhookEventType.batchLimit)
        else { return 0 }
        let logger = logger
        let queued = try await transaction { connection in
            let rows = try await connection.fetch(Queries.SelectOutboxRows(limit: 1000), logger: logger)
            guard !rows.isEmpty else { return 0 }
            let outbox = try await PostgresOutbox.outbox(on: connection, logger: logger)
            let packed = outbox.pack(
                rows.compactMap { row in
                    WebhookEventType(rawValue: row.type).map { OutboxRow(type: $0, count: row.count, items: row.items) }
                }, at: now)
            try await connection.run(Queries.DeleteOutboxRows(seqs: rows.map(\.seq)), logger: logger)
            return try await PostgresOutbox.queue(packed, on: connection, logger: logger)
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return queued
    }

    public func claimDeliveries(now: Int64, leaseMillis: Int64, limit: Int) async throws -> [ClaimedDelivery] {
        try await fetchWritten(Queries.ClaimDeliveries(now: now, leaseMillis: leaseMillis, limit: limit))
    }

    public func recordAttempts(_ attempts: [RecordedAttempt]) async throws {
        guard !attempts.isEmpty else { return }
        let logger = logger
        // Endpoint rows in one order, so two collectors recording at once never wait on each other in a cycle.
        let sorted = attempts.sorted { ($0.delivery.endpointID, $0.delivery.messageID) < ($1.delivery.endpointID, $1.delivery.messageID) }
        try await transaction { connection in
            for attempt in sorted {
                // Replayed or re-claimed meanwhile: that outcome belongs to the newer attempt.
                guard try await connection.run(Queries.RecordDeliveryAttempt(attempt), logger: logger) > 0 else { continue }
                if let status = attempt.update.endpointStatus {
                    try await connection.run(
                        Queries.UpdateEndpointStatus(endpointID: attempt.delivery.endpointID, status: status), logger: logger)
                }
            }
        }
        if attempts.contains(where: { $0.update.endpointStatus == .disabled }) { subscriptions.invalidate() }
    }

    public func pruneDeliveries(createdBefore cutoffMillis: Int64) async throws -> Int {
        let logger = logger
        return try await transaction { connection in
            let pruned = try await connection.run(Queries.PruneDeliveries(createdBefore: cutoffMillis), logger: logger)
            try await connection.run(Queries.DeleteUndeliveredMessages(), logger: logger)
            return pruned
        }
    }

    public func undelivered() async throws -> (count: Int, oldestMillis: Int64?) {
        try await fetch(Queries.SelectUndelivered()).first ?? (0, nil)
    }
}
