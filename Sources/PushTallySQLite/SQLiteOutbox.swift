import GRDB
import PushTallyCore

/// The SQLite statements of the outbox: what the transaction that stores events, registrations or alert
/// transitions runs to queue their webhook messages (``Outbox`` decides which).
enum SQLiteOutbox {
    /// The endpoints subscribed now, read inside the caller's transaction, so an endpoint created a moment
    /// ago (by this process or a CLI beside it) is seen by the next commit.
    static func outbox(in db: Database) throws -> Outbox {
        // Stepped through SQLite's C API: every commit that stores new receipts reads it, and on the one writer
        // GRDB's row cursor cost more than the read itself.
        let query = Queries.SelectSubscriptions()
        return Outbox(try BoundStatement(db, sql: query.sql(.sqlite)).fetchRows { try query.row($0) })
    }

    /// A push's labels, for event messages.
    static func labels(in db: Database) throws -> (String) -> PushLabels? {
        let statement = try db.cachedStatement(sql: Queries.SelectPushLabels.sql)
        var cache: [String: PushLabels?] = [:]
        return { pushID in
            if let known = cache[pushID] { return known }
            let row = try? Row.fetchOne(statement, arguments: [pushID])
            let labels = row.map { PushLabels(campaign: $0[0], app: $0[1]) }
            cache[pushID] = labels
            return labels
        }
    }

    /// Notes a commit's new receipts and taps for the dispatcher, per subscribed type: how many, the commit's
    /// range of event rows, and their pushes' labels as this transaction reads them (the moment PostgreSQL
    /// reads them too, see docs/WEBHOOKS.md). Their JSON is built when packing (``outboxRows(_:in:)``), off
    /// the one writer's commit.
    static func store(_ plan: CommitPlan, rows: ClosedRange<Int64>, at millis: Int64, in db: Database) throws {
        var (displays, actions) = (0, 0)
        // By index: a pair per event would copy each one.
        for index in plan.events.indices where !plan.duplicates[index] {
            let kind = plan.events[index].kind
            if kind == .display { displays += 1 } else if kind == .action { actions += 1 }
        }
        guard displays + actions > 0 else { return }
        let outbox = try outbox(in: db)
        let wanted = [(WebhookEventType.receiptDisplayed, displays), (.actionTapped, actions)].filter { $0.1 > 0 && outbox.wants($0.0) }
        guard !wanted.isEmpty else { return }
        let read = try labels(in: db)
        var labels: [String: PushLabels] = [:]
        for event in plan.events where event.kind.namesPush && labels[event.pushID] == nil {
            if let found = read(event.pushID) { labels[event.pushID] = found }
        }
        let noted = PushLabels.snapshot(labels)
        let statement = try db.cachedStatement(sql: Queries.InsertOutboxNote.sql)
        for (type, count) in wanted {
            try statement.execute(arguments: [type.rawValue, count, noted, millis, rows.lowerBound, rows.upperBound])
        }
    }

    /// Outbox rows with their events' JSON, built from the event rows each stored row names and the labels
    /// its commit noted.
    static func outboxRows(_ stored: [Queries.SelectOutboxRows.Stored], in db: Database) throws -> [OutboxRow] {
        var rows: [OutboxRow] = []
        for row in stored {
            guard let type = WebhookEventType(rawValue: row.type) else { continue }
            guard let first = row.firstEvent, let last = row.lastEvent else {
                rows.append(OutboxRow(type: type, count: row.count, items: row.items))
                continue
            }
            let kind: EventKind = type == .receiptDisplayed ? .display : .action
            let found = try db.fetch(Queries.SelectOutboxEvents(firstRow: first, lastRow: last, kind: kind))
            let noted = row.items
            // A row with no labels noted (`items` empty) reads them when packed.
            let labels = noted.isEmpty ? nil : PushLabels.fromSnapshot(noted)
            rows += Outbox.rows(type, events: found, labels: try labels.map { labels in { labels[$0] } } ?? Self.labels(in: db))
        }
        return rows
    }

    /// Inserts the messages and one pending delivery per endpoint; returns the number of deliveries.
    @discardableResult
    static func queue(_ queued: [QueuedMessage], in db: Database) throws -> Int {
        guard !queued.isEmpty else { return 0 }
        try db.run(Queries.InsertWebhookMessages(queued.map(\.message)))
        let deliveries = Queries.InsertPendingDeliveries(queued)
        try db.run(deliveries)
        return deliveries.count
    }
}
