import GRDB
import PushTallyCore

extension SQLiteStore: WebhookStore {
    public func createWebhook(_ endpoint: WebhookEndpoint, secret: String) async throws {
        _ = try await write { db in try db.run(Queries.InsertWebhook(endpoint, secret: secret)) }
    }

    public func webhooks() async throws -> [WebhookEndpoint] {
        try await read { db in try db.fetch(Queries.SelectWebhooks()) }
    }

    public func deleteWebhook(id: String) async throws -> Bool {
        try await write { db in
            guard try db.run(Queries.DeleteWebhook(id: id)) > 0 else { return false }
            try db.run(Queries.DeleteEndpointDeliveries(endpointID: id))
            return true
        }
    }

    public func deliveries(webhookID: String, status: WebhookDeliveryStatus?, limit: Int) async throws -> [WebhookDelivery] {
        try await read { db in try db.fetch(Queries.SelectDeliveries(endpointID: webhookID, status: status, limit: limit)) }
    }

    public func replay(webhookID: String, sinceMillis: Int64, now: Int64) async throws -> Int {
        try await write { db in try db.run(Queries.ReplayDeliveries(endpointID: webhookID, sinceMillis: sinceMillis, now: now)) }
    }

    public func packOutbox(now: Int64, fillMillis: Int64) async throws -> Int {
        let waiting = try await read { db in try db.fetch(Queries.SelectOutboxWaiting()).first }
        guard let waiting, let oldest = waiting.oldest,
            oldest <= now - fillMillis || waiting.events >= WebhookEventType.batchLimit
        else { return 0 }
        // The events' JSON is built in a read, beside the writer; the write only stores the messages.
        let (packed, seqs) = try await read { db -> ([QueuedMessage], [Int64]) in
            let stored = try db.fetch(Queries.SelectOutboxRows(limit: 1000))
            guard !stored.isEmpty else { return ([], []) }
            let outbox = try SQLiteOutbox.outbox(in: db)
            return (outbox.pack(try SQLiteOutbox.outboxRows(stored, in: db), at: now), stored.map(\.seq))
        }
        guard !seqs.isEmpty else { return 0 }
        // Only this process packs (one collector owns a SQLite file), so the rows read are still there.
        let queued = try await write { db in
            try db.run(Queries.DeleteOutboxRows(seqs: seqs))
            return try SQLiteOutbox.queue(packed, in: db)
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return queued
    }

    public func claimDeliveries(now: Int64, leaseMillis: Int64, limit: Int) async throws -> [ClaimedDelivery] {
        // A read first, so a poll that finds nothing due never waits for the one writer.
        guard try await read({ db in try db.fetch(Queries.SelectDeliveriesDue(now: now)).first ?? false }) else { return [] }
        return try await write { db in try db.fetch(Queries.ClaimDeliveries(now: now, leaseMillis: leaseMillis, limit: limit)) }
    }

    public func recordAttempts(_ attempts: [RecordedAttempt]) async throws {
        guard !attempts.isEmpty else { return }
        try await write { db in
            for attempt in attempts {
                // Replayed or re-claimed meanwhile: that outcome belongs to the newer attempt.
                guard try db.run(Queries.RecordDeliveryAttempt(attempt)) > 0 else { continue }
                if let status = attempt.update.endpointStatus {
                    try db.run(Queries.UpdateEndpointStatus(endpointID: attempt.delivery.endpointID, status: status))
                }
            }
        }
    }

    public func pruneDeliveries(createdBefore cutoffMillis: Int64) async throws -> Int {
        try await write { db in
            let pruned = try db.run(Queries.PruneDeliveries(createdBefore: cutoffMillis))
            try db.run(Queries.DeleteUndeliveredMessages())
            return pruned
        }
    }

    public func undelivered() async throws -> (count: Int, oldestMillis: Int64?) {
        try await read { db in try db.fetch(Queries.SelectUndelivered()).first ?? (0, nil) }
    }
}
