import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import PushTallyCore

/// The PostgreSQL statements of the outbox (``Outbox`` decides what to queue).
enum PostgresOutbox {
    /// The endpoints subscribed now, read in the caller's transaction.
    static func outbox(on connection: PostgresConnection, logger: Logger) async throws -> Outbox {
        Outbox(try await connection.fetch(Queries.SelectSubscriptions(), logger: logger))
    }

    /// The labels of `pushIDs`, in one query.
    static func labels(_ pushIDs: [String], on connection: PostgresConnection, logger: Logger) async throws -> [String: PushLabels] {
        guard !pushIDs.isEmpty else { return [:] }
        var labels: [String: PushLabels] = [:]
        for (pushID, campaign, app) in try await connection.run(
            "SELECT push_id, campaign, app FROM pushes WHERE push_id = ANY(\(pushIDs)::text[])", logger: logger
        ).decode((String, String, String?).self) {
            labels[pushID] = PushLabels(campaign: campaign, app: app)
        }
        return labels
    }

    /// The outbox rows of `plan`'s new displays and taps for the endpoints subscribed (as `subscriptions`
    /// last read them), as one part of the group commit's combined statement; none when nobody takes them.
    /// The events' JSON is built here, with their pushes' labels as this transaction reads them.
    static func parts(
        _ plan: CommitPlan, subscriptions: SubscriptionCache?, on connection: PostgresConnection, logger: Logger
    ) async throws -> [ValuesPart] {
        guard let outbox = try await subscriptions?.outbox(on: connection, logger: logger), outbox.wantsEvents,
            let receivedAt = plan.events.first?.receivedAt
        else { return [] }
        let fresh = plan.outboxEvents
        let labels = try await labels(Array(Set(fresh.map(\.pushID))), on: connection, logger: logger)
        return [part(outbox.rows(forEvents: fresh, labels: { labels[$0] }), at: receivedAt)]
    }

    /// Outbox rows as one part of the group commit's combined statement.
    static func part(_ rows: [OutboxRow], at millis: Int64) -> ValuesPart {
        ValuesPart(rows, columns: 4, head: "INSERT INTO webhook_outbox (type, count, items, created_at)") { row, sql in
            [sql.bind(row.type.rawValue), sql.bind(Int64(row.count)), sql.bind(row.items), sql.bind(millis)]
        }
    }

    /// Inserts messages and one pending delivery per endpoint; returns the number of deliveries.
    @discardableResult
    static func queue(_ queued: [QueuedMessage], on connection: PostgresConnection, logger: Logger) async throws -> Int {
        guard !queued.isEmpty else { return 0 }
        try await connection.run(Queries.InsertWebhookMessages(queued.map(\.message)), logger: logger)
        let deliveries = Queries.InsertPendingDeliveries(queued)
        try await connection.run(deliveries, logger: logger)
        return deliveries.count
    }
}

/// The endpoints' subscriptions as this collector last read them, for the ingest path: reading them in every
/// group commit would add a round trip to each. Re-read when older than a second, and at once after this
/// collector changes an endpoint; an endpoint created on another collector is seen here within a second.
final class SubscriptionCache: Sendable {
    private let state = NIOLockedValueBox<(outbox: Outbox, readAt: ContinuousClock.Instant)?>(nil)
    static let maximumAge: Duration = .seconds(1)

    func outbox(on connection: PostgresConnection, logger: Logger) async throws -> Outbox {
        let now = ContinuousClock.now
        if let cached = state.withLockedValue({ $0 }), now - cached.readAt < Self.maximumAge { return cached.outbox }
        let outbox = try await PostgresOutbox.outbox(on: connection, logger: logger)
        state.withLockedValue { $0 = (outbox, now) }
        return outbox
    }

    func invalidate() {
        state.withLockedValue { $0 = nil }
    }
}
