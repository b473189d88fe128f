import Logging
import PostgresNIO
import PushTallyCore

extension StoredEvent {
    /// Stored events read back (by ``StoredEvent/countedColumns``) with their duplicate flags, for counting.
    static func counted(_ rows: [PostgresRow]) throws -> [(StoredEvent, Bool)] {
        try rows.map { row in
            let event = try StoredEvent(countedRow: PostgresReportRow(row))
            return (event, event.duplicate ?? false)
        }
    }
}

/// The statements of one group commit on PostgreSQL: a handful per transaction, whatever its size.
///
/// Every transaction takes its advisory locks in one order (pushes, devices, then its rollup shard's,
/// ``PushLocks``) before any row lock, and writes each table's rows sorted by key: commits sharing rollup rows
/// take turns under the shard lock, so collectors committing at once wait for each other instead of
/// deadlocking. The store still retries a deadlock PostgreSQL reports (with maintenance, which takes no shard lock).
enum PostgresEventWriter {
    /// Stores `events` with their dedupe keys and rollups (in rollup shard `shard`, dated by ``DatedShards``), attributing the sessions
    /// and conversions of the devices they touch; returns, per event, whether it was a retry. A handful of
    /// round trips whatever the number of events: begin; the locks, dedupe keys and attribution probe in one
    /// (``CommitOpenStatement``); `sent_at`, the probe again when a key was a retry, credits moved on stored rows
    /// (each only when needed); raw rows and every rollup
    /// upsert as one statement (prepared for a commit of sessions and conversions: ``OutcomeCommitStatement``),
    /// commit.
    static func store(
        _ events: [StoredEvent], maturityWindow: Int64, attributionWindows: AttributionWindows, shard: Int64,
        subscriptions: SubscriptionCache? = nil, memory: OneStatementState? = nil, names: NameFold,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> [Bool] {
        guard !events.isEmpty else { return [] }
        let keys = events.map { event in event.dedupeKeys.map { DedupeKey(pushID: event.pushID, key: $0) } }
        // Every key predicted new, so the probe of the devices the commit touches goes with the locks and the keys;
        // a retry among them makes that probe's answer moot, and the devices really touched are probed again.
        let (predictedKeys, distinctKeys) = CommitPlan.predictedNewKeys(keys)
        let predicted = CommitPlan(events, newKeys: predictedKeys)
        let opened = try await open(
            events, keys: distinctKeys, touches: predicted.touches, shard: shard, windows: attributionWindows, on: connection,
            logger: logger)
        let predictionHeld = opened.inserted.count == distinctKeys.count
        let plan = predictionHeld ? predicted : CommitPlan(events, newKeys: CommitPlan.newKeys(keys, inserted: opened.inserted))
        // Under the push locks, so a registration is either wholly before or after.
        let timed = Array(plan.timedPushIDs)
        let sentAt = try await sentAtByPush(timed, on: connection, logger: logger)
        memory?.remember(timed, sentAt: sentAt)
        var counter = plan.rollups(maturityWindow: maturityWindow, names: names) { sentAt[$0] }
        let counted = plan.rows
        var days = DatedShards.days(events.lazy.map(\.receivedAt))
        let credits = try await PostgresAttribution.attribute(
            plan.touches, events: counted, windows: attributionWindows, counter: &counter, movedDays: &days,
            probed: predictionHeld ? opened.probed : nil, on: connection, logger: logger)
        let dated = try await DatedShards.shard(for: days, shard: shard, on: connection, logger: logger)
        let outboxRows = try await PostgresOutbox.parts(plan, subscriptions: subscriptions, on: connection, logger: logger)
        if outboxRows.isEmpty,
            let statement = OutcomeCommitStatement(
                rows: counted.enumerated().map { ($0.element.0, $0.element.1, credits[$0.offset]) },
                rollups: counter.accumulator, audience: plan.audience, shard: dated)
        {
            try connection.ensureOpen()
            for try await _ in try await connection.execute(statement, logger: logger) {}
            return plan.duplicates
        }
        let rollups = PostgresRollupWriter.parts(counter.accumulator, to: .rollups, shard: dated)
        let audience = PostgresAudience.part(plan.audience)
        for query in SQLBuilder.combined(outboxRows + rawRows(counted, credits: credits) + rollups + [audience]) {
            try await connection.run(query, logger: logger)
        }
        return plan.duplicates
    }

    /// The raw rows: displays and actions by their own columns; sessions and conversions by theirs, credit
    /// included (receipts do not pay for the columns they never fill). An imported receipt carries the id it was
    /// first stored under, which only the whole list names.
    static func rawRows(_ counted: [(StoredEvent, Bool)], credits: [Int: Attribution]) -> [ValuesPart] {
        let byReceiptColumns = { (event: StoredEvent) in event.kind.namesPush && event.eventID == nil }
        let receipts = counted.filter { byReceiptColumns($0.0) }
        let outcomes = counted.enumerated().filter { !byReceiptColumns($0.element.0) }.map { ($0.element, credits[$0.offset]) }
        return [
            ValuesPart(receipts, columns: EventColumns.receipt) { ($0.0, $0.1, nil) },
            ValuesPart(outcomes, columns: EventColumns.all) { ($0.0.0, $0.0.1, $0.1) },
        ]
    }

    /// Takes the commit's locks (pushes of displays shared, every device whose events take part in attribution,
    /// the rollup shard: ``PushLocks``), inserts its keys in key order and probes the devices of `touches`, in one
    /// round trip (``CommitOpenStatement``).
    private static func open(
        _ events: [StoredEvent], keys: Set<DedupeKey>, touches: AttributionTouches, shard: Int64, windows: AttributionWindows,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> CommitOpenStatement.Opened {
        let statement = CommitOpenStatement(
            locks: PushLocks.statement(
                Set(events.lazy.filter { $0.kind == .display }.map(\.pushID)), mode: .shared,
                devices: CommitPlan.devicesToLock(events), rollupShard: shard),
            keys: keys.sorted(by: DedupeKey.precedes),
            probe: PostgresAttribution.probe(touches.sorted, windows: windows))
        var rows: [CommitOpenStatement.Row] = []
        try connection.ensureOpen()
        for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
        return CommitOpenStatement.opened(rows)
    }

    /// Counts stored events read back (``RollupCounter``), their pushes' `sent_at` read in one query first.
    static func count(
        _ events: [(StoredEvent, Bool)], maturityWindow: Int64, names: NameFold, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> RollupCounter {
        let timed = Array(RollupCounter.timedPushIDs(events))
        let sentAt = try await sentAtByPush(timed, on: connection, logger: logger)
        var counter = RollupCounter(maturityWindow: maturityWindow, names: names)
        for (event, duplicate) in events {
            counter.add(event, duplicate: duplicate) { sentAt[$0] }
        }
        return counter
    }

    static func sentAtByPush(_ pushIDs: [String], on connection: PostgresConnection, logger: Logger) async throws -> [String: Int64] {
        guard !pushIDs.isEmpty else { return [:] }
        var sentAt: [String: Int64] = [:]
        let rows = try await connection.run(
            "SELECT push_id, sent_at FROM pushes WHERE push_id = ANY(\(pushIDs)::text[]) AND sent_at IS NOT NULL",
            logger: logger)
        for (pushID, time) in try rows.decode((String, Int64).self) {
            sentAt[pushID] = time
        }
        return sentAt
    }
}
