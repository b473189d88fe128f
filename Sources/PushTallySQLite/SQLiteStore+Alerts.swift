import GRDB
import PushTallyCore

extension SQLiteStore: AlertStore {
    public func createAlert(_ alert: Alert) async throws {
        let inserted = try await write { db in try db.run(Queries.InsertAlert(alert)) }
        if inserted == 0 { throw StoreError.alertNameTaken(alert.rule.name) }
    }

    public func alerts() async throws -> [Alert] {
        try await read { db in try db.fetch(Queries.SelectAlerts()).compactMap { $0 } }
    }

    public func deleteAlert(id: String) async throws -> Bool {
        try await write { db in
            guard try db.run(Queries.DeleteAlert(id: id)) > 0 else { return false }
            try db.run(Queries.DeleteAlertHistory(alertID: id))
            return true
        }
    }

    public func alertHistory(id: String, limit: Int) async throws -> [AlertTransition]? {
        try await read { db in
            guard try db.fetch(Queries.SelectAlertExists(id: id)).first ?? false else { return nil }
            return try db.fetch(Queries.SelectAlertHistory(alertID: id, limit: limit))
        }
    }

    public func claimAlertEvaluation(now: Int64, intervalMillis: Int64) async throws -> Bool {
        try await write { db in try db.run(Queries.ClaimAlertEvaluation(now: now, intervalMillis: intervalMillis)) == 1 }
    }

    public func recordEvaluation(_ alert: Alert, transition: AlertTransition?, at now: Int64) async throws {
        let queued = try await write { db in
            guard try db.run(Queries.UpdateAlertState(alert)) > 0, let transition else { return 0 }
            try db.run(Queries.InsertAlertTransition(alertID: alert.id, transition))
            return try SQLiteOutbox.queue(try SQLiteOutbox.outbox(in: db).messages(forAlert: alert, at: now), in: db)
        }
        StoreMetrics.recordQueued(deliveries: queued)
    }
}
