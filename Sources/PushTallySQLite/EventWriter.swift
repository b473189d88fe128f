import GRDB
import PushTallyCore

/// The statements of one SQLite group commit: raw rows, dedupe keys and rollups, all in the caller's transaction.
enum EventWriter {
    /// Stores every event of every batch and returns, per batch, whether each event was a recognised retry.
    /// New events of subscribed types go into the webhook outbox in the same transaction.
    static func commit(
        _ batches: [[IncomingEvent]], receivedAt: Int64, maturityWindow: Int64, attributionWindows: AttributionWindows,
        in db: Database
    ) throws -> [[Bool]] {
        let insertEvent = try db.cachedStatement(sql: """
            INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate,
                                device_id, receipt_id, platform, app_version, os_version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertOutcome = try db.cachedStatement(sql: """
            INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate,
                                device_id, receipt_id, app_version, app, name, value_micros, currency)
            VALUES ('', ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var touches = AttributionTouches()
        let insertKey = try db.cachedStatement(
            sql: "INSERT INTO dedupe (push_id, key) VALUES (?, ?) ON CONFLICT DO NOTHING")
        let sentAt = try SentAtLookup(db)
        var rollups = RollupCounter(maturityWindow: maturityWindow)
        var results: [[Bool]] = []
        results.reserveCapacity(batches.count)
        var rows: (first: Int64, last: Int64)?
        var fresh: (displays: Int, actions: Int) = (0, 0)
        for batch in batches {
            var flags: [Bool] = []
            flags.reserveCapacity(batch.count)
            for event in batch {
                // SQLite inserts one event's keys at a time, so "a key was already there" is the retry rule as is.
                var duplicate = false
                for key in DedupeKeys.of(event) {
                    try insertKey.execute(arguments: [event.pushID, key])
                    if db.changesCount == 0 { duplicate = true }
                }
                let eventTime = EventTime.clamp(deviceTimeMillis: event.deviceTimeMillis, receivedAtMillis: receivedAt)
                if event.kind.namesPush {
                    try insertEvent.execute(arguments: [
                        event.pushID, event.kind.rawValue, event.action, receivedAt, eventTime, duplicate,
                        event.deviceID, event.receiptID, event.platform, event.appVersion, event.osVersion,
                    ])
                } else {
                    try insertOutcome.execute(arguments: [
                        event.kind.rawValue, receivedAt, eventTime, duplicate, event.deviceID, event.receiptID,
                        event.appVersion, event.app, event.name, event.valueMicros, event.currency,
                    ])
                }
                touches.add(
                    kind: event.kind, action: event.action, deviceID: event.deviceID, eventTime: eventTime, duplicate: duplicate)
                let rowID = db.lastInsertedRowID
                rows = (rows?.first ?? rowID, rowID)
                if !duplicate {
                    if event.kind == .display { fresh.displays += 1 } else if event.kind == .action { fresh.actions += 1 }
                }
                try rollups.add(
                    pushID: event.pushID, kind: event.kind, action: event.action, eventTime: eventTime,
                    receivedAt: receivedAt, duplicate: duplicate, appVersion: event.appVersion, osVersion: event.osVersion,
                    sentAt: sentAt.callAsFunction)
                flags.append(duplicate)
            }
            results.append(flags)
        }
        try SQLiteAttribution.attribute(touches, windows: attributionWindows, counter: &rollups, in: db)
        try RollupWriter.write(rollups.accumulator, to: .rollups, in: db)
        if let rows {
            try SQLiteOutbox.store(
                displays: fresh.displays, actions: fresh.actions, rows: rows.first...rows.last, at: receivedAt, in: db)
        }
        return results
    }

    /// Moves a push's pending timing into its latency histogram and late count once `sent_at` is known
    /// (``TimingSettlement``), in the rollups and in the ledger alike.
    static func settleTiming(pushID: String, sentAt: Int64, maturityWindow: Int64, in db: Database) throws {
        for target in TimingSettlement.targets {
            let pending = try Row.fetchAll(
                db, sql: "SELECT clock, second, count FROM \(target.pending) WHERE push_id = ?", arguments: [pushID]
            ).map { TimingSettlement.Pending(clock: $0[0], second: $0[1], count: $0[2]) }
            guard !pending.isEmpty else { continue }
            let (histogram, late) = TimingSettlement.settle(pending, sentAt: sentAt, maturityWindow: maturityWindow)
            if histogram.total > 0 { try TimingTable.add(histogram, pushID: pushID, to: target.timing, in: db) }
            try db.execute(
                sql: "UPDATE \(target.push) SET late = late + ? WHERE push_id = ? AND kind = ? AND action = ''",
                arguments: [late, pushID, EventKind.display.rawValue])
            try db.execute(sql: "DELETE FROM \(target.pending) WHERE push_id = ?", arguments: [pushID])
        }
    }
}

/// A push's `sent_at` by a cached statement, for ``RollupCounter`` (which asks once per push per commit).
struct SentAtLookup {
    private let statement: Statement

    init(_ db: Database) throws {
        statement = try db.cachedStatement(sql: "SELECT sent_at FROM pushes WHERE push_id = ?")
    }

    func callAsFunction(_ pushID: String) throws -> Int64? {
        try Int64?.fetchOne(statement, arguments: [pushID]) ?? nil
    }
}
