import Foundation
import GRDB
import PushTallyCore

extension SQLiteStore {
    /// This database's id, as exports name their source.
    public func databaseID() async throws -> String {
        try await read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'database_id'") ?? "" }
    }

    /// Streams raw events received in [since, until) to `write`, oldest first, in one read transaction
    /// (a consistent snapshot while ingest goes on); returns the count.
    public func exportEvents(
        sinceMillis: Int64?, untilMillis: Int64?, write: @escaping @Sendable (ExportedEvent) throws -> Void
    ) async throws -> Int {
        try await read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT rowid, \(StoredEvent.storedColumns) FROM events WHERE received_at >= ? AND received_at < ? ORDER BY rowid
                    """,
                arguments: [sinceMillis ?? .min, untilMillis ?? .max])
            var count = 0
            while let row = try rows.next() {
                var event = StoredEvent(
                    pushID: row[1], kind: EventKind(rawValue: row[2]) ?? .display, action: row[3], receivedAt: row[4],
                    eventTime: row[5], duplicate: row[6] as Bool, deviceID: row[7], receiptID: row[8], platform: row[9],
                    appVersion: row[10], osVersion: row[11])
                (event.app, event.name, event.valueMicros, event.currency) = (row[12], row[13], row[14], row[15])
                try write(ExportedEvent(event, seq: row[0]))
                count += 1
            }
            return count
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
            let remember = try db.cachedStatement(
                sql: "INSERT INTO imported_events (source, seq) VALUES (?, ?) ON CONFLICT DO NOTHING")
            let insert = try db.cachedStatement(sql: """
                INSERT INTO events (\(StoredEvent.storedColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            var touches = AttributionTouches()
            let key = try db.cachedStatement(sql: "INSERT INTO dedupe (push_id, key) VALUES (?, ?) ON CONFLICT DO NOTHING")
            let sentAt = try SentAtLookup(db)
            let pairs = ActionIDs.pairs(events.lazy.map { StoredEvent(imported: $0) })
            let actions = try SQLiteActionIDs.fold(pairs, book: self.actionIDs, admit: true, in: db)
            var counter = RollupCounter(maturityWindow: window, actions: actions)
            var added = 0
            for exported in events {
                try remember.execute(arguments: [source, exported.seq])
                guard db.changesCount > 0 else { continue }
                let event = StoredEvent(imported: exported)
                try insert.execute(arguments: [
                    event.pushID, event.kind.rawValue, event.action, event.receivedAt, event.eventTime, event.duplicate,
                    event.deviceID, event.receiptID, event.platform, event.appVersion, event.osVersion, event.app,
                    event.name, event.valueMicros, event.currency,
                ])
                touches.add(
                    kind: event.kind, action: event.action, deviceID: event.deviceID, eventTime: event.eventTime,
                    duplicate: event.duplicate ?? false)
                for dedupeKey in event.dedupeKeys { try key.execute(arguments: [event.pushID, dedupeKey]) }
                try counter.add(event, duplicate: event.duplicate ?? false, sentAt: sentAt.callAsFunction)
                added += 1
            }
            try SQLiteAttribution.attribute(touches, windows: windows, counter: &counter, in: db)
            try RollupWriter.write(counter.accumulator, to: .rollups, in: db)
            return added
        }
    }
}
