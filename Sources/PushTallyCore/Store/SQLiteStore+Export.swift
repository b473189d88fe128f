import Foundation
import GRDB

/// One raw event as exported: stored fields only (device ids stay keyed hashes).
public struct ExportedEvent: Codable, Sendable, Hashable {
    /// The event's sequence number in its source database.
    public var seq: Int64
    public var push_id: String
    public var kind: String
    public var action: String?
    public var received_at: Int64
    public var event_time: Int64
    public var duplicate: Bool
    public var device_id: String?
    public var receipt_id: String?
    public var platform: String?
    public var app_version: String?
    public var os_version: String?

    public init(
        seq: Int64, push_id: String, kind: String, action: String?, received_at: Int64, event_time: Int64,
        duplicate: Bool, device_id: String?, receipt_id: String?, platform: String?, app_version: String?,
        os_version: String?
    ) {
        self.seq = seq
        self.push_id = push_id
        self.kind = kind
        self.action = action
        self.received_at = received_at
        self.event_time = event_time
        self.duplicate = duplicate
        self.device_id = device_id
        self.receipt_id = receipt_id
        self.platform = platform
        self.app_version = app_version
        self.os_version = os_version
    }
}

/// The first line of an export: what it is, which version of the format, and where it came from.
public struct ExportHeader: Codable, Sendable, Hashable {
    public static let formatName = "pushtally-events"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    /// The exporting database's id: an import skips events it already took from the same source.
    public var source: String
    public var exported_at: String

    public init(format: String, version: Int, source: String, exported_at: String) {
        self.format = format
        self.version = version
        self.source = source
        self.exported_at = exported_at
    }
}

extension SQLiteStore {
    /// This database's id, as exports name their source.
    public func databaseID() async throws -> String {
        try await pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'database_id'") ?? "" }
    }

    /// Streams raw events received in [since, until) to `write`, oldest first, in one read transaction
    /// (a consistent snapshot while ingest goes on); returns the count.
    public func exportEvents(
        sinceMillis: Int64?, untilMillis: Int64?, write: @escaping @Sendable (ExportedEvent) throws -> Void
    ) async throws -> Int {
        try await pool.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT rowid, push_id, kind, action, received_at, event_time, duplicate, device_id, receipt_id,
                           platform, app_version, os_version
                    FROM events WHERE received_at >= ? AND received_at < ? ORDER BY rowid
                    """,
                arguments: [sinceMillis ?? .min, untilMillis ?? .max])
            var count = 0
            while let row = try rows.next() {
                let kind = EventKind(rawValue: row["kind"]) ?? .display
                try write(ExportedEvent(
                    seq: row["rowid"], push_id: row["push_id"], kind: kind == .display ? "display" : "action",
                    action: kind == .display ? nil : row["action"], received_at: row["received_at"],
                    event_time: row["event_time"], duplicate: row["duplicate"], device_id: row["device_id"],
                    receipt_id: row["receipt_id"], platform: row["platform"], app_version: row["app_version"],
                    os_version: row["os_version"]))
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
        return try await pool.write { db in
            let remember = try db.cachedStatement(
                sql: "INSERT INTO imported_events (source, seq) VALUES (?, ?) ON CONFLICT DO NOTHING")
            let insert = try db.cachedStatement(sql: """
                INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate,
                                    device_id, receipt_id, platform, app_version, os_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let key = try db.cachedStatement(sql: "INSERT INTO dedupe (push_id, key) VALUES (?, ?) ON CONFLICT DO NOTHING")
            var counter = RollupCounter(maturityWindow: window)
            var added = 0
            for event in events {
                try remember.execute(arguments: [source, event.seq])
                guard db.changesCount > 0 else { continue }
                let kind: EventKind = event.kind == "action" ? .action : .display
                let action = kind == .action ? StandardAction.normalise(event.action ?? "") : ""
                try insert.execute(arguments: [
                    event.push_id, kind.rawValue, action, event.received_at, event.event_time, event.duplicate,
                    event.device_id, event.receipt_id, event.platform, event.app_version, event.os_version,
                ])
                let incoming = IncomingEvent(
                    pushID: event.push_id, kind: kind, action: action, deviceID: event.device_id, receiptID: event.receipt_id)
                for dedupeKey in EventWriter.dedupeKeys(incoming) { try key.execute(arguments: [event.push_id, dedupeKey]) }
                try counter.add(
                    pushID: event.push_id, kind: kind, action: action, eventTime: event.event_time,
                    receivedAt: event.received_at, duplicate: event.duplicate, appVersion: event.app_version,
                    osVersion: event.os_version, in: db)
                added += 1
            }
            try counter.write(to: .rollups, in: db)
            return added
        }
    }
}
