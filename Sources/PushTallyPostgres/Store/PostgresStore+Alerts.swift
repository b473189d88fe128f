import Logging
import PostgresNIO
import PushTallyCore

extension PostgresStore: AlertStore {
    public func createAlert(_ alert: Alert) async throws {
        if try await write(Queries.InsertAlert(alert)) == 0 { throw StoreError.alertNameTaken(alert.rule.name) }
    }

    public func alerts() async throws -> [Alert] {
        try await fetch(Queries.SelectAlerts()).compactMap { $0 }
    }

    public func deleteAlert(id: String) async throws -> Bool {
        let logger = logger
        return try await transaction { connection in
            guard try await connection.run(Queries.DeleteAlert(id: id), logger: logger) > 0 else { return false }
            try await connection.run(Queries.DeleteAlertHistory(alertID: id), logger: logger)
            return true
        }
    }

    public func alertHistory(id: String, limit: Int) async throws -> [AlertTransition]? {
        guard try await fetch(Queries.SelectAlertExists(id: id)).first ?? false else { return nil }
        return try await fetch(Queries.SelectAlertHistory(alertID: id, limit: limit))
    }

    public func claimAlertEvaluation(now: Int64, intervalMillis: Int64) async throws -> Bool {
        try await write(Queries.ClaimAlertEvaluation(now: now, intervalMillis: intervalMillis)) > 0
    }

    public func recordEvaluation(_ alert: Alert, transition: AlertTransition?, at now: Int64) async throws {
        let logger = logger
        let queued = try await transaction { connection in
            guard try await connection.run(Queries.UpdateAlertState(alert), logger: logger) > 0, let transition else { return 0 }
            try await connection.run(Queries.InsertAlertTransition(alertID: alert.id, transition), logger: logger)
            let outbox = try await PostgresOutbox.outbox(on: connection, logger: logger)
            return try await PostgresOutbox.queue(outbox.messages(forAlert: alert, at: now), on: connection, logger: logger)
        }
        StoreMetrics.recordQueued(deliveries: queued)
    }
}
