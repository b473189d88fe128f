import GRDB
import PushTallyCore

extension SQLiteStore: AlertStore {
    public func createAlert(_ alert: Alert) async throws {
        try await write { db in
            guard try !(Bool.fetchOne(db, sql: "SELECT 1 FROM alerts WHERE name = ?", arguments: [alert.rule.name]) ?? false) else {
                throw StoreError.alertNameTaken(alert.rule.name)
            }
            let rule = alert.rule
            try db.execute(
                sql: "INSERT INTO alerts (\(WebhookSchema.alertColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    alert.id, rule.name, rule.kind.rawValue, rule.windowMillis, rule.threshold, rule.minSent, rule.graceMillis,
                    rule.campaign, rule.app, alert.createdAtMillis, alert.state.rawValue, alert.sinceMillis, alert.value,
                    alert.detail, alert.evaluatedAtMillis,
                ])
        }
    }

    public func alerts() async throws -> [Alert] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT \(WebhookSchema.alertColumns) FROM alerts ORDER BY created_at, id").compactMap { row in
                Alert(
                    id: row[0], name: row[1], kind: row[2], windowMillis: row[3], threshold: row[4], minSent: row[5],
                    graceMillis: row[6], campaign: row[7], app: row[8], createdAtMillis: row[9], state: row[10],
                    sinceMillis: row[11], value: row[12], detail: row[13], evaluatedAtMillis: row[14])
            }
        }
    }

    public func deleteAlert(id: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM alerts WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "DELETE FROM alert_history WHERE alert_id = ?", arguments: [id])
            return true
        }
    }

    public func alertHistory(id: String, limit: Int) async throws -> [AlertTransition]? {
        try await read { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM alerts WHERE id = ?", arguments: [id]) ?? false else { return nil }
            return try Row.fetchAll(
                db,
                sql: "SELECT state, at, value, detail FROM alert_history WHERE alert_id = ? ORDER BY at DESC, rowid DESC LIMIT ?",
                arguments: [id, limit]
            ).map { row in
                AlertTransition(
                    alertID: id, state: AlertState(rawValue: row[0]) ?? .ok, atMillis: row[1], value: row[2], detail: row[3])
            }
        }
    }

    public func claimAlertEvaluation(now: Int64, intervalMillis: Int64) async throws -> Bool {
        try await write { db in
            // Nine tenths of the interval: a collector whose timer fires a little early still takes its turn.
            try db.execute(
                sql: "UPDATE alert_evaluation SET evaluated_at = ? WHERE id = 1 AND evaluated_at <= ?",
                arguments: [now, now - intervalMillis * 9 / 10])
            return db.changesCount == 1
        }
    }

    public func recordEvaluation(_ alert: Alert, transition: AlertTransition?, at now: Int64) async throws {
        let queued = try await write { db in
            try db.execute(
                sql: "UPDATE alerts SET state = ?, since = ?, value = ?, detail = ?, evaluated_at = ? WHERE id = ?",
                arguments: [alert.state.rawValue, alert.sinceMillis, alert.value, alert.detail, alert.evaluatedAtMillis, alert.id])
            guard db.changesCount > 0, let transition else { return 0 }
            try db.execute(
                sql: "INSERT INTO alert_history (alert_id, at, state, value, detail) VALUES (?, ?, ?, ?, ?)",
                arguments: [alert.id, transition.atMillis, transition.state.rawValue, transition.value, transition.detail])
            return try SQLiteOutbox.queue(try SQLiteOutbox.outbox(in: db).messages(forAlert: alert, at: now), in: db)
        }
        StoreMetrics.recordQueued(deliveries: queued)
    }
}
