import GRDB
import PushTallyCore

extension SQLiteStore: PushRegistry {
    /// Registers a push or replaces its totals; the same call twice leaves the same state.
    ///
    /// - Throws: ``StoreError/sentAtImmutable(pushID:current:)`` when `sent_at` would move.
    @discardableResult
    public func register(_ push: PushRegistration) async throws -> RegistrationOutcome {
        let now = configuration.clock()
        let window = configuration.maturityWindowMillis
        let statements = rollupStatements
        let (outcome, queued) = try await write { db in
            let outbox = try SQLiteOutbox.outbox(in: db)
            let outcome = try Self.register(push, now: now, maturityWindow: window, statements: statements, in: db)
            return (outcome, try SQLiteOutbox.queue(outbox.messages(forRegistration: push, outcome: outcome, at: now), in: db))
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return outcome
    }

    /// Registers many pushes in one transaction; each element fails or succeeds by itself.
    public func register(_ pushes: [PushRegistration]) async throws -> [Result<RegistrationOutcome, StoreError>] {
        let now = configuration.clock()
        let window = configuration.maturityWindowMillis
        let statements = rollupStatements
        let (results, queued) = try await write { db in
            let outbox = try SQLiteOutbox.outbox(in: db)
            var queued = 0
            let results: [Result<RegistrationOutcome, StoreError>] = try pushes.map { push in
                do {
                    let outcome = try Self.register(push, now: now, maturityWindow: window, statements: statements, in: db)
                    queued += try SQLiteOutbox.queue(outbox.messages(forRegistration: push, outcome: outcome, at: now), in: db)
                    return .success(outcome)
                } catch let error as StoreError {
                    return .failure(error)
                }
            }
            return (results, queued)
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return results
    }

    /// Adds (or, for a repeated `batch_id`, replaces) one parallel sender's counts.
    public func addSends(_ batch: SendBatch) async throws {
        let now = configuration.clock()
        try await write { db in
            let registered = try !db.fetch(Queries.SelectPushSentAt(pushID: batch.pushID)).isEmpty
            try Self.checkTotals(batch.counts, pushID: batch.pushID, batchID: batch.batchID, in: db)
            if let campaign = try RegistrationPlan.campaign(forSends: batch, registered: registered) {
                try db.run(Queries.InsertSendsOnlyPush(pushID: batch.pushID, campaign: campaign, now: now))
            }
            try Self.replaceCounts(batch.counts, pushID: batch.pushID, batchID: batch.batchID, now: now, in: db)
        }
    }

    private static func register(
        _ push: PushRegistration, now: Int64, maturityWindow: Int64, statements: RollupStatements, in db: Database
    ) throws -> RegistrationOutcome {
        let stored = try db.fetch(Queries.SelectPushSentAt(pushID: push.pushID)).first
        let plan = try RegistrationPlan(push, stored: stored)
        // Before any write: a push that fails here leaves nothing behind in a batch's transaction.
        try checkTotals(push.counts, pushID: push.pushID, batchID: "", in: db)
        switch plan.outcome {
        case .updated: try db.run(Queries.UpdatePush(push, now: now))
        case .created: try db.run(Queries.InsertPush(push, now: now))
        }
        try db.run(Queries.UpdatePushAttributes(pushID: push.pushID, push.attributes))
        try replaceCounts(push.counts, pushID: push.pushID, batchID: "", now: now, in: db)
        if let sentAt = plan.settleTimingAt {
            try EventWriter.settleTiming(
                pushID: push.pushID, sentAt: sentAt, maturityWindow: maturityWindow, statements: statements, in: db)
        }
        return plan.outcome
    }

    /// ``SendTotals/check(_:others:pushID:)`` against the push's other send records.
    private static func checkTotals(_ counts: SendCounts, pushID: String, batchID: String, in db: Database) throws {
        guard let others = try db.fetch(Queries.SelectOtherSends(pushID: pushID, batchID: batchID)).first else { return }
        try SendTotals.check(counts, others: others, pushID: pushID)
    }

    /// Replaces one record's counts, and logs the record for the event feed at the next position.
    static func replaceCounts(_ counts: SendCounts, pushID: String, batchID: String, now: Int64, in db: Database) throws {
        try db.run(Queries.UpsertPushSends(pushID: pushID, batchID: batchID, counts))
        if let platform = counts.platform {
            try db.run(Queries.UpsertSendPlatform(pushID: pushID, batchID: batchID, platform: platform))
        } else {
            try db.run(Queries.DeleteSendPlatform(pushID: pushID, batchID: batchID))
        }
        try db.run(Queries.DeletePushFailures(pushID: pushID, batchID: batchID))
        let failures = counts.failureRows
        if !failures.isEmpty { try db.run(Queries.InsertPushFailures(pushID: pushID, batchID: batchID, failures)) }
        let position = try EventPositions.next(in: db)
        try db.run(Queries.InsertSendRecord(position: position, pushID: pushID, batchID: batchID, counts, recordedAt: now))
        try EventPositions.raise(to: position, in: db)
    }
}
