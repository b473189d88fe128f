import GRDB
import PushTallyCore

/// Executes one SQLite group commit's ``CommitPlan``: dedupe keys, raw rows, attribution, rollups and the
/// outbox note, all in the caller's transaction.
enum EventWriter {
    /// Stores every event of every batch and returns, per batch, whether each event was a recognised retry.
    /// New events of subscribed types go into the webhook outbox in the same transaction.
    /// Also returns how the events' names were folded, for the overflow metrics once committed.
    static func commit(
        _ batches: [[IncomingEvent]], receivedAt: Int64, maturityWindow: Int64, attributionWindows: AttributionWindows,
        nameBook: NameBook, statements: RollupStatements, in db: Database
    ) throws -> (flags: [[Bool]], names: NameFold) {
        var events: [StoredEvent] = []
        events.reserveCapacity(batches.reduce(0) { $0 + $1.count })
        // By index: `for event in batch` would copy each incoming event before building its stored form.
        for batch in batches.indices {
            for event in batches[batch].indices { events.append(StoredEvent(batches[batch][event], receivedAt: receivedAt)) }
        }
        let plan = CommitPlan(events, newKeys: try DedupeWriter.newKeys(events, db: db))
        let pairs = BoundedNames.pairs(events)
        let names = try SQLiteNames.fold(pairs, book: nameBook, admit: true, in: db)
        let sentAt = try SentAtLookup(db)
        var rollups = try plan.rollups(maturityWindow: maturityWindow, names: names, sentAt: sentAt.callAsFunction)
        let placeholder = plan.events.isEmpty ? nil : try EventPositions.claim(in: db)
        let rows = try RawRows.insert(plan.events, duplicates: plan.duplicates, narrowReceipts: true, in: db)
        try EventPositions.release(placeholder, in: db)
        try SQLiteAttribution.attribute(plan.touches, windows: attributionWindows, counter: &rollups, in: db)
        try RollupWriter.write(rollups.accumulator, to: .rollups, statements: statements, in: db)
        try SQLiteAudience.write(plan.audience, in: db)
        if let rows { try SQLiteOutbox.store(plan, rows: rows, at: receivedAt, in: db) }
        var offset = 0
        let flags = batches.map { batch in
            defer { offset += batch.count }
            return Array(plan.duplicates[offset..<offset + batch.count])
        }
        return (flags, names)
    }

    /// Moves a push's pending timing into its latency histogram and late count once `sent_at` is known
    /// (``TimingSettlement``), in the rollups and in the ledger alike.
    static func settleTiming(
        pushID: String, sentAt: Int64, maturityWindow: Int64, statements: RollupStatements, in db: Database
    ) throws {
        for target in TimingSettlement.targets {
            let pending = try db.fetch(Queries.SelectPendingTiming(table: target.pending, pushID: pushID))
            guard !pending.isEmpty else { continue }
            let (histogram, late) = TimingSettlement.settle(pending, sentAt: sentAt, maturityWindow: maturityWindow)
            if histogram.total > 0 { try TimingTable.add(histogram, pushID: pushID, to: target, statements: statements, in: db) }
            try db.run(Queries.AddLateDisplays(table: target.push, pushID: pushID, late: late))
            try db.run(Queries.DeletePendingTiming(target: target, pushID: pushID))
        }
    }
}

/// A push's `sent_at` by a cached statement, for ``RollupCounter`` (which asks once per push per commit).
struct SentAtLookup {
    private let statement: BoundStatement

    init(_ db: Database) throws {
        statement = try BoundStatement(db, sql: Queries.SelectSentAtByPush.sql)
    }

    func callAsFunction(_ pushID: String) throws -> Int64? {
        statement.bind(1, pushID)
        return try statement.fetchInt64()
    }
}
