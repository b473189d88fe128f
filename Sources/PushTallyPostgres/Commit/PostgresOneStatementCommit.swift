import Logging
import PostgresNIO
import PushTallyCore

/// A group commit as one statement, so two round trips (the statement, then the check that it committed): the rollups are counted before anything is read,
/// from predictions (every dedupe key new, each push's `sent_at` as ``OneStatementState`` last saw it, no
/// touched device needing attribution), and the statement's `pushtally_ingest_guard` call takes the locks,
/// inserts the keys and checks the predictions before its raw rows and upserts run (each reads the guard's
/// answer before its first row: ``SQLBuilder/gate``). A statement outside
/// `BEGIN` commits on its own, durably (`synchronous_commit = on`), or not at all; its requests are answered
/// only once the server confirmed the commit (``PostgresConnection/confirmCommitted(logger:)``), a round trip
/// after the statement's own.
///
/// The transaction path (``PostgresEventWriter``) is the reference and the fallback: events it alone handles
/// (sessions and conversions to attribute, events to queue for webhooks) never come here, and a prediction
/// that fails rolls the statement back (``IngestGuardSchema/missState``) and commits them that way.
enum PostgresOneStatementCommit {
    /// Stores `events` in one statement and returns, per event, whether it was a retry; `nil` when they must
    /// go through the transaction path instead (nothing was stored then).
    static func store(
        _ events: [StoredEvent], maturityWindow: Int64, shard: Int64, state: OneStatementState,
        subscriptions: SubscriptionCache?, names: NameFold, on connection: PostgresConnection, logger: Logger
    ) async throws -> [Bool]? {
        // Events of more than one day go through the transaction path, which lists their days as undated.
        let days = DatedShards.days(events.lazy.map(\.receivedAt))
        guard days.count == 1, let day = days.first, state.shouldTry() else { return nil }
        let collectorShard = shard
        let shard = DatedShards.of(day: day, shard: shard)
        if let outbox = try await subscriptions?.outbox(on: connection, logger: logger), outbox.wantsEvents { return nil }
        let keys = events.map { event in event.dedupeKeys.map { DedupeKey(pushID: event.pushID, key: $0) } }
        // Every key predicted new: an event is a retry only of an earlier event of this commit.
        let (newKeys, predicted) = CommitPlan.predictedNewKeys(keys)
        let plan = CommitPlan(events, newKeys: newKeys)
        let timed = plan.timedPushIDs.sorted()
        guard let sentAt = state.sentAt(timed) else { return nil }
        let probes = plan.touches.sorted
        guard !probes.contains(where: \.touch.hasOutcome) else { return nil }
        let counter = plan.rollups(maturityWindow: maturityWindow, names: names) { sentAt[$0] ?? nil }
        let counted = plan.rows
        let devices = CommitPlan.devicesToLock(events)
        let sortedKeys = predicted.sorted(by: DedupeKey.precedes)
        let guarding = ReceiptCommit.Guard(
            lockPushes: Array(Set(events.lazy.filter { $0.kind == .display }.map(\.pushID))), lockDevices: Array(devices),
            perDevice: devices.count <= PushLocks.maximumDeviceLocks, keyPushes: sortedKeys.map(\.pushID),
            keyValues: sortedKeys.map(\.key), timedPushes: timed, timedKnown: timed.map { (sentAt[$0] ?? nil) != nil },
            timedSent: timed.map { (sentAt[$0] ?? nil) ?? 0 }, probeDevices: probes.map(\.deviceID), probeFrom: probes.map(\.touch.from),
            rollupShard: collectorShard)
        do {
            if events.allSatisfy(\.kind.namesPush) {
                let (shape, bindings) = ReceiptCommit.bind(receipts: counted, rollups: counter.accumulator, shard: shard, guarding: guarding)
                try await connection.runReceiptCommit(shape, bindings, logger: logger)
            } else {
                guard
                    let query = builtStatement(
                        counted, rollups: counter.accumulator, audience: plan.audience, shard: shard, guarding: guarding)
                else { return nil }
                try await connection.run(query, logger: logger)
            }
        } catch let error as PSQLError where error.code == .server && error.serverInfo?[.sqlState] == IngestGuardSchema.missState {
            logger.debug("one-statement commit fell back", metadata: ["reason": "\(error.serverInfo?[.message] ?? "")"])
            state.record(hit: false)
            return nil
        }
        try await connection.confirmCommitted(logger: logger)
        state.record(hit: true)
        return plan.duplicates
    }

    /// The statement built for these events (sessions and conversions among them, which the prepared
    /// receipt statement has no columns for), `nil` when its bindings do not fit in one statement.
    private static func builtStatement(
        _ counted: [(StoredEvent, Bool)], rollups: RollupAccumulator, audience: [AudienceRow], shard: Int64,
        guarding: ReceiptCommit.Guard
    ) -> PostgresQuery? {
        let parts = PostgresEventWriter.rawRows(counted, credits: [:])
            + PostgresRollupWriter.parts(rollups, to: .rollups, shard: shard) + [PostgresAudience.part(audience)]
        return SQLBuilder.guarded(parts) { sql in
            let arguments = [
                sql.bind(guarding.lockPushes) + "::text[]", sql.bind(guarding.lockDevices) + "::text[]", sql.bind(guarding.perDevice),
                sql.bind(guarding.keyPushes) + "::text[]", sql.bind(guarding.keyValues) + "::text[]",
                sql.bind(guarding.timedPushes) + "::text[]", sql.bind(guarding.timedKnown) + "::boolean[]",
                sql.bind(guarding.timedSent) + "::bigint[]", sql.bind(guarding.probeDevices) + "::text[]",
                sql.bind(guarding.probeFrom) + "::bigint[]", sql.bind(Int64(EventKind.session.rawValue)),
                sql.bind(guarding.rollupShard) + "::bigint",
            ]
            sql.append("pushtally_ingest_guard(" + arguments.joined(separator: ", ") + ")")
        }
    }
}
