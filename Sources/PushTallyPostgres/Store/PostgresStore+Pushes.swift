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
            let registered = !(try await connection.fetch(Queries.SelectPushSentAt(pushID: batch.pushID), logger: logger)).isEmpty
            try await Self.checkTotals(batch.counts, pushID: batch.pushID, batchID: batch.batchID, on: connection, logger: logger)
            if let campaign = try RegistrationPlan.campaign(forSends: batch, registered: registered) {
                try await connection.run(Queries.InsertSendsOnlyPush(pushID: batch.pushID, campaign: campaign, now: now), logger: logger)
            }
            try await Self.replaceCounts(
                batch.counts, pushID: batch.pushID, batchID: batch.batchID, now: now, on: connection, logger: logger)
        }
    }

    private static func register(
        _ push: PushRegistration, now: Int64, maturityWindow: Int64, shard: Int64, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> RegistrationOutcome {
        let stored = try await connection.fetch(Queries.SelectPushSentAt(pushID: push.pushID), logger: logger).first
        let plan = try RegistrationPlan(push, stored: stored)
        // Before any write: a push that fails here leaves nothing behind in a batch's transaction.
        try await checkTotals(push.counts, pushID: push.pushID, batchID: "", on: connection, logger: logger)
        switch plan.outcome {
        case .updated: try await connection.run(Queries.UpdatePush(push, now: now), logger: logger)
        case .created: try await connection.run(Queries.InsertPush(push, now: now), logger: logger)
        }
        try await connection.run(Queries.UpdatePushAttributes(pushID: push.pushID, push.attributes), logger: logger)
        try await replaceCounts(push.counts, pushID: push.pushID, batchID: "", now: now, on: connection, logger: logger)
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
        let others = try await connection.fetch(Queries.SelectOtherSends(pushID: pushID, batchID: batchID), logger: logger)
        guard let others = others.first else { return }
        try SendTotals.check(counts, others: others, pushID: pushID)
    }

    /// Replaces one record's counts, and logs the record for the event feed.
    static func replaceCounts(
        _ counts: SendCounts, pushID: String, batchID: String, now: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.run(Queries.UpsertPushSends(pushID: pushID, batchID: batchID, counts), logger: logger)
        if let platform = counts.platform {
            try await connection.run(Queries.UpsertSendPlatform(pushID: pushID, batchID: batchID, platform: platform), logger: logger)
        } else {
            try await connection.run(Queries.DeleteSendPlatform(pushID: pushID, batchID: batchID), logger: logger)
        }
        try await connection.run(Queries.DeletePushFailures(pushID: pushID, batchID: batchID), logger: logger)
        let failures = counts.failureRows
        if !failures.isEmpty {
            try await connection.run(Queries.InsertPushFailures(pushID: pushID, batchID: batchID, failures), logger: logger)
        }
        try await connection.run(
            Queries.InsertSendRecord(position: nil, pushID: pushID, batchID: batchID, counts, recordedAt: now), logger: logger)
    }

    /// Moves a push's pending timing into its histogram and late count once `sent_at` is known
    /// (``TimingSettlement``), each live shard's into the same shard: a day's shards keep exactly what its
    /// receipts count (``DatedShards``).
    private static func settleTiming(
        pushID: String, sentAt: Int64, maturityWindow: Int64, target: RollupTarget,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        let sharded = SQLDialect.postgres.shards(target)
        var pendingByShard: [Int64: [TimingSettlement.Pending]] = [:]
        for (rowShard, pending) in try await connection.fetch(
            Queries.SelectPendingTiming(target: target, pushID: pushID), logger: logger)
        {
            pendingByShard[rowShard, default: []].append(pending)
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
            try await connection.run(
                Queries.AddLateReceipts(target: target, pushID: pushID, shard: sharded ? rowShard : nil, late: late), logger: logger)
        }
        try await connection.run(Queries.DeletePendingTiming(target: target, pushID: pushID), logger: logger)
    }
}
