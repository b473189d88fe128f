import Logging
import PostgresNIO
import PushTallyCore

extension PostgresStore: PushRegistry {
    /// Registers a push (``RegistrationPlan``) under its exclusive push lock, so a receipt committing at once
    /// on another collector is timed either before or after, never lost in between.
    @discardableResult
    public func register(_ push: PushRegistration) async throws -> RegistrationOutcome {
        let now = configuration.clock()
        let window = configuration.maturityWindowMillis
        let logger = logger
        let shard = shard
        let (outcome, queued) = try await transaction { connection in
            try await PushLocks.lock([push.pushID], mode: .exclusive, on: connection, logger: logger)
            let outcome = try await Self.register(push, now: now, maturityWindow: window, shard: shard, on: connection, logger: logger)
            let outbox = try await PostgresOutbox.outbox(on: connection, logger: logger)
            let messages = outbox.messages(forRegistration: push, outcome: outcome, at: now)
            return (outcome, try await PostgresOutbox.queue(messages, on: connection, logger: logger))
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return outcome
    }

    /// Registers many pushes in one transaction; each element fails or succeeds by itself.
    public func register(_ pushes: [PushRegistration]) async throws -> [Result<RegistrationOutcome, StoreError>] {
        let now = configuration.clock()
        let window = configuration.maturityWindowMillis
        let logger = logger
        let shard = shard
        let (results, queued) = try await transaction { connection in
            try await PushLocks.lock(Set(pushes.map(\.pushID)), mode: .exclusive, on: connection, logger: logger)
            let outbox = try await PostgresOutbox.outbox(on: connection, logger: logger)
            var results: [Result<RegistrationOutcome, StoreError>] = []
            var messages: [QueuedMessage] = []
            for push in pushes {
                do {
                    let outcome = try await Self.register(
                        push, now: now, maturityWindow: window, shard: shard, on: connection, logger: logger)
                    messages += outbox.messages(forRegistration: push, outcome: outcome, at: now)
                    results.append(.success(outcome))
                } catch let error as StoreError {
                    results.append(.failure(error))
                }
            }
            return (results, try await PostgresOutbox.queue(messages, on: connection, logger: logger))
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return results
    }

    /// Adds (or, for a repeated `batch_id`, replaces) one parallel sender's counts.
    public func addSends(_ batch: SendBatch) async throws {
        let now = configuration.clock()
        let logger = logger
        try await transaction { connection in
            try await PushLocks.lock([batch.pushID], mode: .exclusive, on: connection, logger: logger)
            let registered = !(try await connection.run("SELECT 1 FROM pushes WHERE push_id = \(batch.pushID)", logger: logger)).isEmpty
            try await Self.checkTotals(batch.counts, pushID: batch.pushID, batchID: batch.batchID, on: connection, logger: logger)
            if let campaign = try RegistrationPlan.campaign(forSends: batch, registered: registered) {
                try await connection.run(
                    """
                    INSERT INTO pushes (push_id, campaign, created_at, updated_at)
                    VALUES (\(batch.pushID), \(campaign), \(now), \(now))
                    """, logger: logger)
            }
            try await Self.replaceCounts(batch.counts, pushID: batch.pushID, batchID: batch.batchID, on: connection, logger: logger)
        }
    }

    private static func register(
        _ push: PushRegistration, now: Int64, maturityWindow: Int64, shard: Int64, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> RegistrationOutcome {
        var stored: Int64?? = nil
        for sentAt in try await connection.run(
            "SELECT sent_at FROM pushes WHERE push_id = \(push.pushID)", logger: logger
        ).decode(Int64?.self) {
            stored = .some(sentAt)
        }
        let plan = try RegistrationPlan(push, stored: stored)
        // Before any write: a push that fails here leaves nothing behind in a batch's transaction.
        try await checkTotals(push.counts, pushID: push.pushID, batchID: "", on: connection, logger: logger)
        if plan.outcome == .updated {
            try await connection.run(
                """
                UPDATE pushes SET campaign = \(push.campaign), title = \(push.title), sent_at = COALESCE(sent_at, \(push.sentAtMillis)),
                    app = \(push.app), environment = \(push.environment), updated_at = \(now)
                WHERE push_id = \(push.pushID)
                """, logger: logger)
        } else {
            try await connection.run(
                """
                INSERT INTO pushes (push_id, campaign, title, sent_at, app, environment, created_at, updated_at)
                VALUES (\(push.pushID), \(push.campaign), \(push.title), \(push.sentAtMillis), \(push.app), \(push.environment), \(now), \(now))
                """, logger: logger)
        }
        let (variant, collapseID, priority, pushType, expiration) = SendAttributeColumns.values(push.attributes)
        try await connection.run(
            """
            UPDATE pushes SET variant = \(variant), collapse_id = \(collapseID), priority = \(priority),
                push_type = \(pushType), expiration = \(expiration)
            WHERE push_id = \(push.pushID)
            """, logger: logger)
        try await replaceCounts(push.counts, pushID: push.pushID, batchID: "", on: connection, logger: logger)
        if let sentAt = plan.settleTimingAt {
            for target in TimingSettlement.targets {
                try await settleTiming(
                    pushID: push.pushID, sentAt: sentAt, maturityWindow: maturityWindow, target: target,
                    on: connection, logger: logger)
            }
        }
        return plan.outcome
    }

    /// ``SendTotals/check(_:others:pushID:)`` against the push's other send records.
    private static func checkTotals(
        _ counts: SendCounts, pushID: String, batchID: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        let rows = try await connection.run(
            """
            SELECT (SELECT COALESCE(SUM(targeted), 0)::bigint FROM push_sends WHERE push_id = \(pushID) AND batch_id <> \(batchID)),
                   (SELECT COALESCE(SUM(sent), 0)::bigint FROM push_sends WHERE push_id = \(pushID) AND batch_id <> \(batchID)),
                   (SELECT COALESCE(SUM(count), 0)::bigint FROM push_failures WHERE push_id = \(pushID) AND batch_id <> \(batchID))
            """, logger: logger)
        guard let row = rows.first else { return }
        let (targeted, sent, failed) = try row.decode((Int64, Int64, Int64).self)
        try SendTotals.check(counts, others: SendCounts(targeted: targeted, sent: sent, failed: ["": failed]), pushID: pushID)
    }

    private static func replaceCounts(
        _ counts: SendCounts, pushID: String, batchID: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(
            """
            INSERT INTO push_sends (push_id, batch_id, targeted, sent) VALUES (\(pushID), \(batchID), \(counts.targeted), \(counts.sent))
            ON CONFLICT (push_id, batch_id) DO UPDATE SET targeted = excluded.targeted, sent = excluded.sent
            """, logger: logger)
        let platform = SendPlatformSchema.statement(naming: counts.platform) { "$\($0 + 1)" }
        try await connection.run(
            PostgresQuery(
                unsafeSQL: platform,
                binds: counts.platform.map { binds(pushID, batchID, $0) } ?? binds(pushID, batchID)),
            logger: logger)
        try await connection.run(
            "DELETE FROM push_failures WHERE push_id = \(pushID) AND batch_id = \(batchID)", logger: logger)
        for query in SQLBuilder.values(
            counts.failureRows, columns: 4, head: "INSERT INTO push_failures (push_id, batch_id, reason, count)",
            bind: { entry, sql in [sql.bind(pushID), sql.bind(batchID), sql.bind(entry.reason), sql.bind(entry.count)] })
        {
            try await connection.run(query, logger: logger)
        }
    }

    /// Moves a push's pending timing into its histogram and late count once `sent_at` is known
    /// (``TimingSettlement``), each live shard's into the same shard: a day's shards keep exactly what its
    /// receipts count (``DatedShards``).
    private static func settleTiming(
        pushID: String, sentAt: Int64, maturityWindow: Int64, target: RollupTarget,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        let sharded = SQLDialect.postgres.shards(target)
        let rows = try await connection.run(
            PostgresQuery(
                unsafeSQL: "SELECT \(sharded ? "shard" : "0::bigint"), clock, second, count FROM \(target.pending) WHERE push_id = $1",
                binds: binds(pushID)),
            logger: logger
        ).decode((Int64, Int, Int64, Int64).self)
        var pendingByShard: [Int64: [TimingSettlement.Pending]] = [:]
        for (rowShard, clock, second, count) in rows {
            pendingByShard[rowShard, default: []].append(TimingSettlement.Pending(clock: clock, second: second, count: count))
        }
        guard !pendingByShard.isEmpty else { return }
        for (rowShard, pending) in pendingByShard.sorted(by: { $0.key < $1.key }) {
            let (histogram, late) = TimingSettlement.settle(pending, sentAt: sentAt, maturityWindow: maturityWindow)
            if histogram.total > 0 {
                for query in PostgresRollupWriter.timingPart([(pushID, histogram)], to: target, shard: rowShard).statements() {
                    try await connection.run(query, logger: logger)
                }
            }
            // Late receipts go to one of the push's display rows of that shard (reports add them up); pending
            // timing is written only beside a display row of its shard, so there is one.
            var update = SQLBuilder("UPDATE \(target.push) SET late = late + ")
            update.append(update.bind(late) + " WHERE ctid = (SELECT ctid FROM \(target.push) WHERE push_id = " + update.bind(pushID))
            if sharded { update.append(" AND shard = " + update.bind(rowShard)) }
            update.append(" AND kind = \(EventKind.display.rawValue) AND action = '' LIMIT 1)")
            try await connection.run(update.query, logger: logger)
        }
        try await connection.run(
            PostgresQuery(unsafeSQL: "DELETE FROM \(target.pending) WHERE push_id = $1", binds: binds(pushID)), logger: logger)
    }
}

/// Bindings for a statement whose text is built (a table name), with its values.
func binds(_ values: any PostgresDynamicTypeEncodable...) -> PostgresBindings {
    var bindings = PostgresBindings(capacity: values.count)
    for value in values { bindings.append(value) }
    return bindings
}
