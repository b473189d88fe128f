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
        let (outcome, queued) = try await write { db in
            let outbox = try SQLiteOutbox.outbox(in: db)
            let outcome = try Self.register(push, now: now, maturityWindow: window, in: db)
            return (outcome, try SQLiteOutbox.queue(outbox.messages(forRegistration: push, outcome: outcome, at: now), in: db))
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return outcome
    }

    /// Registers many pushes in one transaction; each element fails or succeeds by itself.
    public func register(_ pushes: [PushRegistration]) async throws -> [Result<RegistrationOutcome, StoreError>] {
        let now = configuration.clock()
        let window = configuration.maturityWindowMillis
        let (results, queued) = try await write { db in
            let outbox = try SQLiteOutbox.outbox(in: db)
            var queued = 0
            let results: [Result<RegistrationOutcome, StoreError>] = try pushes.map { push in
                do {
                    let outcome = try Self.register(push, now: now, maturityWindow: window, in: db)
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
            let registered = try Bool.fetchOne(db, sql: "SELECT 1 FROM pushes WHERE push_id = ?", arguments: [batch.pushID]) ?? false
            try Self.checkTotals(batch.counts, pushID: batch.pushID, batchID: batch.batchID, in: db)
            if let campaign = try RegistrationPlan.campaign(forSends: batch, registered: registered) {
                try db.execute(
                    sql: "INSERT INTO pushes (push_id, campaign, created_at, updated_at) VALUES (?, ?, ?, ?)",
                    arguments: [batch.pushID, campaign, now, now])
            }
            try Self.replaceCounts(batch.counts, pushID: batch.pushID, batchID: batch.batchID, in: db)
        }
    }

    private static func register(
        _ push: PushRegistration, now: Int64, maturityWindow: Int64, in db: Database
    ) throws -> RegistrationOutcome {
        let stored = try Row.fetchOne(db, sql: "SELECT sent_at FROM pushes WHERE push_id = ?", arguments: [push.pushID])
            .map { $0["sent_at"] as Int64? }
        let plan = try RegistrationPlan(push, stored: stored)
        // Before any write: a push that fails here leaves nothing behind in a batch's transaction.
        try checkTotals(push.counts, pushID: push.pushID, batchID: "", in: db)
        switch plan.outcome {
        case .updated:
            try db.execute(
                sql: """
                    UPDATE pushes SET campaign = ?, title = ?, sent_at = COALESCE(sent_at, ?), app = ?,
                        environment = ?, updated_at = ?
                    WHERE push_id = ?
                    """,
                arguments: [push.campaign, push.title, push.sentAtMillis, push.app, push.environment, now, push.pushID])
        case .created:
            try db.execute(
                sql: """
                    INSERT INTO pushes (push_id, campaign, title, sent_at, app, environment, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [push.pushID, push.campaign, push.title, push.sentAtMillis, push.app, push.environment, now, now])
        }
        let (variant, collapseID, priority, pushType, expiration) = SendAttributeColumns.values(push.attributes)
        try db.execute(
            sql: "UPDATE pushes SET \(SendAttributeColumns.names.map { "\($0) = ?" }.joined(separator: ", ")) WHERE push_id = ?",
            arguments: [variant, collapseID, priority, pushType, expiration, push.pushID])
        try replaceCounts(push.counts, pushID: push.pushID, batchID: "", in: db)
        if let sentAt = plan.settleTimingAt {
            try EventWriter.settleTiming(pushID: push.pushID, sentAt: sentAt, maturityWindow: maturityWindow, in: db)
        }
        return plan.outcome
    }

    /// ``SendTotals/check(_:others:pushID:)`` against the push's other send records.
    private static func checkTotals(_ counts: SendCounts, pushID: String, batchID: String, in db: Database) throws {
        let sends = try Row.fetchOne(
            db, sql: "SELECT COALESCE(SUM(targeted), 0), COALESCE(SUM(sent), 0) FROM push_sends WHERE push_id = ? AND batch_id <> ?",
            arguments: [pushID, batchID])
        let failed = try Int64.fetchOne(
            db, sql: "SELECT COALESCE(SUM(count), 0) FROM push_failures WHERE push_id = ? AND batch_id <> ?", arguments: [pushID, batchID])
        let others = SendCounts(targeted: sends?[0] ?? 0, sent: sends?[1] ?? 0, failed: ["": failed ?? 0])
        try SendTotals.check(counts, others: others, pushID: pushID)
    }

    private static func replaceCounts(_ counts: SendCounts, pushID: String, batchID: String, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO push_sends (push_id, batch_id, targeted, sent) VALUES (?, ?, ?, ?)
                ON CONFLICT (push_id, batch_id) DO UPDATE SET targeted = excluded.targeted, sent = excluded.sent
                """,
            arguments: [pushID, batchID, counts.targeted, counts.sent])
        let platform = SendPlatformSchema.statement(naming: counts.platform) { _ in "?" }
        try db.execute(
            sql: platform, arguments: StatementArguments([pushID, batchID] + (counts.platform.map { [$0] } ?? [])))
        try db.execute(
            sql: "DELETE FROM push_failures WHERE push_id = ? AND batch_id = ?", arguments: [pushID, batchID])
        for (reason, count) in counts.failureRows {
            try db.execute(
                sql: "INSERT INTO push_failures (push_id, batch_id, reason, count) VALUES (?, ?, ?, ?)",
                arguments: [pushID, batchID, reason, count])
        }
    }
}
