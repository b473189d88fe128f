import GRDB
import PushTallyCore

/// Runs ``AttributionPlanner`` for the devices a transaction touched: reads each device's events by the
/// `events_by_device` index, stores the new credits on the sessions and conversions, and counts the moves.
enum SQLiteAttribution {
    /// The columns a device's events are read by, in ``event(_:)``'s order.
    private static let columns = """
        rowid, kind, push_id, action, event_time, receipt_id, attribution, attributed_push, value_micros, currency
        """

    static func attribute(
        _ touches: AttributionTouches, windows: AttributionWindows, counter: inout RollupCounter, in db: Database
    ) throws {
        guard !touches.isEmpty else { return }
        let planner = AttributionPlanner(windows: windows)
        let probe = try db.cachedStatement(sql: """
            SELECT 1 FROM events WHERE device_id = ? AND event_time >= ? AND kind >= \(EventKind.session.rawValue)
            AND duplicate = 0 LIMIT 1
            """)
        let load = try db.cachedStatement(
            sql: "SELECT \(columns) FROM events WHERE device_id = ? AND event_time >= ? AND duplicate = 0")
        let update = try db.cachedStatement(sql: "UPDATE events SET attribution = ?, attributed_push = ? WHERE rowid = ?")
        var frozenBefore: Int64?
        for (deviceID, touch) in touches.sorted {
            if !touch.hasOutcome, try Row.fetchOne(probe, arguments: [deviceID, touch.from]) == nil { continue }
            let events = try Row.fetchAll(load, arguments: [deviceID, touch.from - windows.lookbackMillis]).map(event)
            if frozenBefore == nil { frozenBefore = try Self.frozenBefore(windows: windows, in: db) }
            for change in planner.changes(events, from: touch.from, frozenBefore: frozenBefore!) {
                try update.execute(arguments: [change.new.code, change.new.pushID, change.event.row])
                counter.attribute(change)
            }
        }
    }

    /// Recomputes every stored credit from the raw events (a rollup rebuild, before it counts them), device by
    /// device, so a rebuild re-derives attribution rather than trusting what ingest stored.
    static func reattributeAll(windows: AttributionWindows, in db: Database) throws {
        let planner = AttributionPlanner(windows: windows)
        let frozenBefore = try frozenBefore(windows: windows, in: db)
        let devices = try String.fetchAll(
            db, sql: "SELECT DISTINCT device_id FROM events WHERE kind >= \(EventKind.session.rawValue) AND device_id IS NOT NULL")
        let load = try db.cachedStatement(sql: "SELECT \(columns) FROM events WHERE device_id = ? AND duplicate = 0")
        let update = try db.cachedStatement(sql: "UPDATE events SET attribution = ?, attributed_push = ? WHERE rowid = ?")
        for deviceID in devices {
            let events = try Row.fetchAll(load, arguments: [deviceID]).map(event)
            for change in planner.changes(events, from: .min, frozenBefore: frozenBefore) {
                try update.execute(arguments: [change.new.code, change.new.pushID, change.event.row])
            }
        }
    }

    /// Sessions and conversions earlier than this keep their credit: their windows reach events pruned.
    static func frozenBefore(windows: AttributionWindows, in db: Database) throws -> Int64 {
        let pruned = try String.fetchOne(
            db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [AttributionSchema.prunedBeforeKey]
        ).flatMap { Int64($0) }
        return pruned.map { $0 + windows.lookbackMillis } ?? .min
    }

    /// Records a prune's cutoff (only ever moving forward).
    static func notePruned(before cutoff: Int64, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO meta (key, value) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))
                """,
            arguments: [AttributionSchema.prunedBeforeKey, String(cutoff)])
    }

    static func event(_ row: Row) -> AttributionPlanner.Event {
        AttributionPlanner.Event(
            row: row[0], kind: EventKind(rawValue: row[1]) ?? .display, pushID: row[2], action: row[3], time: row[4],
            clientID: row[5], attribution: Attribution(code: row[6], pushID: row[7]), valueMicros: row[8], currency: row[9])
    }
}
