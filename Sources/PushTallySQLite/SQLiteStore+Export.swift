import Foundation
import GRDB
import PushTallyCore

extension SQLiteStore {
    /// This database's id, as exports name their source.
    public func databaseID() async throws -> String {
        try await read { db in try db.fetch(Queries.SelectDatabaseID()).first ?? "" }
    }

    /// Streams raw events received in [since, until) to `write`, oldest first, in one read transaction
    /// (a consistent snapshot while ingest goes on); returns the count.
    public func exportEvents(
        sinceMillis: Int64?, untilMillis: Int64?, write: @escaping @Sendable (ExportedEvent) throws -> Void
    ) async throws -> Int {
        try await read { db in
            let source = try db.fetch(Queries.SelectDatabaseID()).first ?? ""
            var count = 0
            try db.forEach(Queries.SelectExportedEvents(sinceMillis: sinceMillis ?? .min, untilMillis: untilMillis ?? .max)) { event in
                var event = event
                event.identify(source: source)
                try write(event)
                count += 1
            }
            return count
        }
    }

    /// Up to `limit` events after `cursor` in position order, the order SQLite's writers commit in (raw events,
    /// send records and FCM deliveries share one run of positions), from one snapshot.
    public func eventFeed(after cursor: EventCursor, limit: Int) async throws -> EventFeedPage {
        try await read { db in
            let source = try db.fetch(Queries.SelectDatabaseID()).first ?? ""
            let bound = "0"
            let tables = [
                try db.fetch(Queries.SelectFeedEvents(after: cursor, limit: limit, bound: bound)),
                try db.fetch(Queries.SelectFeedSends(after: cursor, limit: limit, bound: bound)),
                try db.fetch(Queries.SelectFeedFCMDeliveries(after: cursor, limit: limit, bound: bound)),
            ]
            return EventFeedPage(tables: tables, after: cursor, limit: limit, source: source)
        }
    }

    /// Adds exported events with their rollups, skipping any this database already holds from `source`
    /// (or that came from itself), so importing the same file twice changes nothing. Returns how many were new.
    public func importEvents(_ events: [ExportedEvent], source: String) async throws -> Int {
        let own = try await databaseID()
        if source == own { return 0 }
        let window = configuration.maturityWindowMillis
        let windows = configuration.attributionWindows
        return try await write { db in
            let remember = try db.cachedStatement(sql: Queries.InsertImportedEvent.sql)
            var added: [StoredEvent] = []
            for exported in events {
                try remember.execute(arguments: [source, exported.seq])
                if db.changesCount > 0 { added.append(StoredEvent(imported: exported, source: source)) }
            }
            // Imported events keep their retry flags; their keys are stored so later retries are recognised.
            let plan = CommitPlan(added, newKeys: try DedupeWriter.newKeys(added, db: db))
            let names = try SQLiteNames.fold(BoundedNames.pairs(added), book: self.nameBook, admit: true, in: db)
            let sentAt = try SentAtLookup(db)
            var counter = try plan.rollups(maturityWindow: window, names: names, sentAt: sentAt.callAsFunction)
            let placeholder = plan.events.isEmpty ? nil : try EventPositions.claim(in: db)
            _ = try RawRows.insert(plan.events, duplicates: plan.duplicates, narrowReceipts: false, in: db)
            try EventPositions.release(placeholder, in: db)
            try SQLiteAttribution.attribute(plan.touches, windows: windows, counter: &counter, in: db)
            try RollupWriter.write(counter.accumulator, to: .rollups, statements: self.rollupStatements, in: db)
            try SQLiteAudience.write(plan.audience, in: db)
            return added.count
        }
    }
}
