import GRDB
import PushTallyCore

/// The statements of one SQLite group commit: raw rows, dedupe keys and rollups, all in the caller's transaction.
enum EventWriter {
    /// Stores every event of every batch and returns, per batch, whether each event was a recognised retry.
    /// New events of subscribed types go into the webhook outbox in the same transaction.
    /// Also returns how custom action ids were folded, for the overflow metric once committed.
    static func commit(
        _ batches: [[IncomingEvent]], receivedAt: Int64, maturityWindow: Int64, attributionWindows: AttributionWindows,
        actionIDs: ActionIDBook, in db: Database
    ) throws -> (flags: [[Bool]], actions: ActionFold) {
        let insertEvent = try BoundStatement(db, sql: """
            INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate,
                                device_id, receipt_id, platform, app_version, os_version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertOutcome = try BoundStatement(db, sql: """
            INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate,
                                device_id, receipt_id, app_version, app, name, value_micros, currency)
            VALUES ('', ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var touches = AttributionTouches()
        let duplicates = try DedupeWriter.duplicates(in: batches, db: db)
        let sentAt = try SentAtLookup(db)
        let pairs = ActionIDs.customPairs(batches.joined().lazy.map { (pushID: $0.pushID, kind: $0.kind, action: $0.action) })
        let actions = try SQLiteActionIDs.fold(pairs, book: actionIDs, admit: true, in: db)
        var rollups = RollupCounter(maturityWindow: maturityWindow, actions: actions)
        var rows: (first: Int64, last: Int64)?
        var fresh: (displays: Int, actions: Int) = (0, 0)
        for (batchIndex, batch) in batches.enumerated() {
            for (eventIndex, event) in batch.enumerated() {
                let duplicate = duplicates[batchIndex][eventIndex]
                let eventTime = EventTime.clamp(deviceTimeMillis: event.deviceTimeMillis, receivedAtMillis: receivedAt)
                if event.kind.namesPush {
                    try insertEvent.insert(event, receivedAt: receivedAt, eventTime: eventTime, duplicate: duplicate)
                } else {
                    try insertOutcome.insertOutcome(event, receivedAt: receivedAt, eventTime: eventTime, duplicate: duplicate)
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
            }
        }
        try SQLiteAttribution.attribute(touches, windows: attributionWindows, counter: &rollups, in: db)
        try RollupWriter.write(rollups.accumulator, to: .rollups, in: db)
        if let rows {
            try SQLiteOutbox.store(
                displays: fresh.displays, actions: fresh.actions, rows: rows.first...rows.last, at: receivedAt, in: db)
        }
        return (duplicates, actions)
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
    private let statement: BoundStatement

    init(_ db: Database) throws {
        statement = try BoundStatement(db, sql: "SELECT sent_at FROM pushes WHERE push_id = ?")
    }

    func callAsFunction(_ pushID: String) throws -> Int64? {
        statement.bind(1, pushID)
        return try statement.fetchInt64()
    }
}

extension BoundStatement {
    /// A display or action row, in the `INSERT INTO events` column order of ``EventWriter/commit``.
    fileprivate func insert(_ event: IncomingEvent, receivedAt: Int64, eventTime: Int64, duplicate: Bool) throws {
        bind(1, event.pushID)
        bind(2, event.kind.rawValue)
        bind(3, event.action)
        bind(4, receivedAt)
        bind(5, eventTime)
        bind(6, duplicate)
        bind(7, event.deviceID)
        bind(8, event.receiptID)
        bind(9, event.platform)
        bind(10, event.appVersion)
        bind(11, event.osVersion)
        try execute()
    }

    /// A session or conversion row, likewise.
    fileprivate func insertOutcome(_ event: IncomingEvent, receivedAt: Int64, eventTime: Int64, duplicate: Bool) throws {
        bind(1, event.kind.rawValue)
        bind(2, receivedAt)
        bind(3, eventTime)
        bind(4, duplicate)
        bind(5, event.deviceID)
        bind(6, event.receiptID)
        bind(7, event.appVersion)
        bind(8, event.app)
        bind(9, event.name)
        bind(10, event.valueMicros)
        bind(11, event.currency)
        try execute()
    }
}
