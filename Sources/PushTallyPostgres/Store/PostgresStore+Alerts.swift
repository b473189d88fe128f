import Logging
import PostgresNIO
import PushTallyCore

extension PostgresStore: AlertStore {
    public func createAlert(_ alert: Alert) async throws {
        let rule = alert.rule
        let inserted = try await write(
            """
            INSERT INTO alerts (\(unescaped: WebhookSchema.alertColumns))
            VALUES (\(alert.id), \(rule.name), \(rule.kind.rawValue), \(rule.windowMillis), \(rule.threshold), \(rule.minSent),
                    \(rule.graceMillis), \(rule.campaign), \(rule.app), \(alert.createdAtMillis), \(alert.state.rawValue),
                    \(alert.sinceMillis), \(alert.value), \(alert.detail), \(alert.evaluatedAtMillis))
            ON CONFLICT (name) DO NOTHING RETURNING id
            """)
        if inserted.isEmpty { throw StoreError.alertNameTaken(rule.name) }
    }

    public func alerts() async throws -> [Alert] {
        try await query("SELECT \(unescaped: WebhookSchema.alertColumns) FROM alerts ORDER BY created_at, id")
            .decode(
                (String, String, String, Int64, Double, Int64, Int64, String?, String?, Int64, String, Int64, Double?, String?, Int64?).self
            ).compactMap { row in
                Alert(
                    id: row.0, name: row.1, kind: row.2, windowMillis: row.3, threshold: row.4, minSent: row.5,
                    graceMillis: row.6, campaign: row.7, app: row.8, createdAtMillis: row.9, state: row.10,
                    sinceMillis: row.11, value: row.12, detail: row.13, evaluatedAtMillis: row.14)
            }
    }

    public func deleteAlert(id: String) async throws -> Bool {
        let logger = logger
        return try await transaction { connection in
            guard !(try await connection.run("DELETE FROM alerts WHERE id = \(id) RETURNING id", logger: logger)).isEmpty else {
                return false
            }
            try await connection.run("DELETE FROM alert_history WHERE alert_id = \(id)", logger: logger)
            return true
        }
    }

    public func alertHistory(id: String, limit: Int) async throws -> [AlertTransition]? {
        guard !(try await query("SELECT 1 FROM alerts WHERE id = \(id)")).isEmpty else { return nil }
        return try await query(
            "SELECT state, at, value, detail FROM alert_history WHERE alert_id = \(id) ORDER BY at DESC LIMIT \(Int64(limit))"
        ).decode((String, Int64, Double?, String?).self).map { state, at, value, detail in
            AlertTransition(alertID: id, state: AlertState(rawValue: state) ?? .ok, atMillis: at, value: value, detail: detail)
        }
    }

    public func claimAlertEvaluation(now: Int64, intervalMillis: Int64) async throws -> Bool {
        // One row, updated only when the last evaluation is nine tenths of an interval old: of collectors
        // asking at once, the row lock lets one through and the rest find it fresh.
        !(try await write(
            """
            UPDATE alert_evaluation SET evaluated_at = \(now)
            WHERE id = 1 AND evaluated_at <= \(now - intervalMillis * 9 / 10) RETURNING id
            """)).isEmpty
    }

    public func recordEvaluation(_ alert: Alert, transition: AlertTransition?, at now: Int64) async throws {
        let logger = logger
        let queued = try await transaction { connection in
            let updated = try await connection.run(
                """
                UPDATE alerts SET state = \(alert.state.rawValue), since = \(alert.sinceMillis), value = \(alert.value),
                    detail = \(alert.detail), evaluated_at = \(alert.evaluatedAtMillis)
                WHERE id = \(alert.id) RETURNING id
                """, logger: logger)
            guard !updated.isEmpty, let transition else { return 0 }
            try await connection.run(
                """
                INSERT INTO alert_history (alert_id, at, state, value, detail)
                VALUES (\(alert.id), \(transition.atMillis), \(transition.state.rawValue), \(transition.value), \(transition.detail))
                """, logger: logger)
            let outbox = try await PostgresOutbox.outbox(on: connection, logger: logger)
            return try await PostgresOutbox.queue(outbox.messages(forAlert: alert, at: now), on: connection, logger: logger)
        }
        StoreMetrics.recordQueued(deliveries: queued)
    }
}
