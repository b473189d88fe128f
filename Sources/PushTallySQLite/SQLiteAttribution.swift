import GRDB
import PushTallyCore

/// Runs ``AttributionPlanner`` for the devices a transaction touched: reads each device's events by the
/// `events_by_device` index, stores the new credits on the sessions and conversions, and counts the moves.
enum SQLiteAttribution {
    static func attribute(
        _ touches: AttributionTouches, windows: AttributionWindows, counter: inout RollupCounter, in db: Database
    ) throws {
        guard !touches.isEmpty else { return }
        let planner = AttributionPlanner(windows: windows)
        // Read and written through SQLite's C API: GRDB's generic row decoding costs as much as the reads themselves.
        let probe = try BoundStatement(db, sql: Queries.SelectDeviceHasOutcome.sql)
        let load = try BoundStatement(db, sql: Queries.SelectDeviceEvents.sinceSQL)
        let update = try BoundStatement(db, sql: Queries.UpdateEventCredit.sql)
        var frozenBefore: Int64?
        for (deviceID, touch) in touches.sorted {
            if !touch.hasOutcome {
                probe.bind(1, deviceID)
                probe.bind(2, touch.from)
                if try probe.fetchInt64() == nil { continue }
            }
            load.bind(1, deviceID)
            load.bind(2, touch.from - windows.lookbackMillis)
            let events = try load.fetchAll(Queries.SelectDeviceEvents.event)
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
        let devices = try db.fetch(Queries.SelectOutcomeDevices())
        let load = try BoundStatement(db, sql: Queries.SelectDeviceEvents.allSQL)
        let update = try BoundStatement(db, sql: Queries.UpdateEventCredit.sql)
        for deviceID in devices {
            load.bind(1, deviceID)
            let events = try load.fetchAll(Queries.SelectDeviceEvents.event)
            for change in planner.changes(events, from: .min, frozenBefore: frozenBefore) {
                try store(change, with: update)
            }
        }
    }

    /// Stores a change's credit on its event's row, through ``Queries/UpdateEventCredit``.
    private static func store(_ change: AttributionPlanner.Change, with update: BoundStatement) throws {
        update.bind(1, Int64(change.new.code))
        update.bind(2, change.new.pushID)
        update.bind(3, change.event.row)
        try update.execute()
    }

    /// Sessions and conversions earlier than this keep their credit: their windows reach events pruned.
    static func frozenBefore(windows: AttributionWindows, in db: Database) throws -> Int64 {
        let pruned = try db.fetch(Queries.SelectPrunedBefore()).first ?? nil
        return pruned.map { $0 + windows.lookbackMillis } ?? .min
    }

    /// Records a prune's cutoff (only ever moving forward).
    static func notePruned(before cutoff: Int64, in db: Database) throws {
        try db.run(Queries.NotePrunedBefore(cutoff: cutoff))
    }
}
