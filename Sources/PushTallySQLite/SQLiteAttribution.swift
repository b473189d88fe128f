import GRDB
import PushTallyCore

/// Runs ``AttributionPlanner`` for the devices a transaction touched: reads each device's events by the
/// `events_by_device` index, stores the new credits on the sessions and conversions, and counts the moves.
enum SQLiteAttribution {
    /// The columns a device's events are read by, in ``event(_:)``'s order.
    private static let columns = """
        rowid, kind, push_id, action, event_time, receipt_id, attribution, attributed_push, value_micros, currency
        """

    /// Stores one credit on a raw row (``store(_:with:)``).
    private static let updateSQL = "UPDATE events SET attribution = ?, attributed_push = ? WHERE rowid = ?"

    static func attribute(
        _ touches: AttributionTouches, windows: AttributionWindows, counter: inout RollupCounter, in db: Database
    ) throws {
        guard !touches.isEmpty else { return }
        let planner = AttributionPlanner(windows: windows)
        // Read and written through SQLite's C API: GRDB's generic row decoding costs as much as the reads themselves.
        let probe = try BoundStatement(db, sql: """
            SELECT 1 FROM events WHERE device_id = ? AND event_time >= ? AND kind >= \(EventKind.session.rawValue)
            AND duplicate = 0 LIMIT 1
            """)
        let load = try BoundStatement(
            db, sql: "SELECT \(columns) FROM events WHERE device_id = ? AND event_time >= ? AND duplicate = 0")
        let update = try BoundStatement(db, sql: updateSQL)
        var frozenBefore: Int64?
        for (deviceID, touch) in touches.sorted {
            if !touch.hasOutcome {
                probe.bind(1, deviceID)
                probe.bind(2, touch.from)
                if try probe.fetchInt64() == nil { continue }
            }
            load.bind(1, deviceID)
            load.bind(2, touch.from - windows.lookbackMillis)
            let events = try load.fetchAll(event)
            if frozenBefore == nil { frozenBefore = try Self.frozenBefore(windows: windows, in: db) }
            for change in planner.changes(events, from: touch.from, frozenBefore: frozenBefore!) {
                try store(change, with: update)
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
        let load = try BoundStatement(db, sql: "SELECT \(columns) FROM events WHERE device_id = ? AND duplicate = 0")
        let update = try BoundStatement(db, sql: updateSQL)
        for deviceID in devices {
            load.bind(1, deviceID)
            let events = try load.fetchAll(event)
            for change in planner.changes(events, from: .min, frozenBefore: frozenBefore) {
                try store(change, with: update)
            }
        }
    }

    /// Stores a change's credit on its event's row, through ``updateSQL``.
    private static func store(_ change: AttributionPlanner.Change, with update: BoundStatement) throws {
        update.bind(1, Int64(change.new.code))
        update.bind(2, change.new.pushID)
        update.bind(3, change.event.row)
        try update.execute()
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

    /// A row of ``columns`` as the planner's event.
    static func event(_ row: BoundStatement.Columns) -> AttributionPlanner.Event {
        AttributionPlanner.Event(
            row: row.int64(0), kind: EventKind(rawValue: Int(row.int64(1))) ?? .display, pushID: row.text(2),
            action: row.text(3), time: row.int64(4), clientID: row.optionalText(5),
            attribution: Attribution(code: row.optionalInt64(6).map { Int($0) }, pushID: row.optionalText(7)),
            valueMicros: row.optionalInt64(8), currency: row.optionalText(9))
    }
}
