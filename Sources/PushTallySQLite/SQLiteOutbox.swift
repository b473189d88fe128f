import GRDB
import PushTallyCore

/// The SQLite statements of the outbox: what the transaction that stores events, registrations or alert
/// transitions runs to queue their webhook messages (``Outbox`` decides which).
enum SQLiteOutbox {
    /// The endpoints subscribed now, read inside the caller's transaction, so an endpoint created a moment
    /// ago (by this process or a CLI beside it) is seen by the next commit.
    static func outbox(in db: Database) throws -> Outbox {
        let statement = try db.cachedStatement(sql: "SELECT id, events FROM webhooks WHERE status != 'disabled'")
        return Outbox(try Row.fetchAll(statement).map { row in
            WebhookSubscription(endpointID: row[0], events: Set(WebhookEndpoint.events(fromList: row[1])))
        })
    }

    /// A push's labels, for event messages.
    static func labels(in db: Database) throws -> (String) -> PushLabels? {
        let statement = try db.cachedStatement(sql: "SELECT campaign, app FROM pushes WHERE push_id = ?")
        var cache: [String: PushLabels?] = [:]
        return { pushID in
            if let known = cache[pushID] { return known }
            let row = try? Row.fetchOne(statement, arguments: [pushID])
            let labels = row.map { PushLabels(campaign: $0[0], app: $0[1]) }
            cache[pushID] = labels
            return labels
        }
    }

    /// Stores receipts and taps for the dispatcher to pack (``Outbox/pack(_:at:)``).
    static func store(_ rows: [OutboxRow], at millis: Int64, in db: Database) throws {
        guard !rows.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: "INSERT INTO webhook_outbox (type, count, items, created_at) VALUES (?, ?, ?, ?)")
        for row in rows {
            try statement.execute(arguments: [row.type.rawValue, row.count, row.items, millis])
        }
    }

    /// Inserts the messages and one pending delivery per endpoint; returns the number of deliveries.
    @discardableResult
    static func queue(_ queued: [QueuedMessage], in db: Database) throws -> Int {
        guard !queued.isEmpty else { return 0 }
        let message = try db.cachedStatement(
            sql: "INSERT INTO webhook_messages (id, type, body, created_at) VALUES (?, ?, ?, ?)")
        let delivery = try db.cachedStatement(sql: """
            INSERT INTO webhook_deliveries (message_id, endpoint_id, status, created_at, next_attempt_at)
            VALUES (?, ?, 'pending', ?, ?)
            """)
        var deliveries = 0
        for item in queued {
            let m = item.message
            try message.execute(arguments: [m.id, m.type.rawValue, m.body, m.createdAtMillis])
            for endpoint in item.endpointIDs {
                try delivery.execute(arguments: [m.id, endpoint, m.createdAtMillis, m.createdAtMillis])
                deliveries += 1
            }
        }
        return deliveries
    }
}
