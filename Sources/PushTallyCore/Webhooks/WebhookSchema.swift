import Foundation

/// The tables of webhooks and alerts, in each engine's dialect: the same columns everywhere, so the engines'
/// statements differ only where their SQL does.
package enum WebhookSchema {

    /// Released as written; the SQL comments describe the tables as created. SQLite's event rows in the
    /// outbox hold in `items` the labels their commit read (`PushLabels.snapshot`), not `''`.
    package static func sql(dialect: SQLDialect) -> String {
        let integer = dialect == .sqlite ? "INTEGER" : "BIGINT"
        let real = dialect == .sqlite ? "REAL" : "DOUBLE PRECISION"
        let withoutRowID = dialect == .sqlite ? " WITHOUT ROWID" : ""
        return """
            CREATE TABLE webhooks (
                id TEXT PRIMARY KEY NOT NULL, url TEXT NOT NULL, events TEXT NOT NULL, description TEXT,
                secret TEXT NOT NULL, status TEXT NOT NULL, created_at \(integer) NOT NULL
            );
            -- Receipts and taps for subscribed types, stored by the commit that stored the events: one row per
            -- commit and type, packed into messages of up to 500 events within a second.
            CREATE TABLE webhook_outbox (
                seq \(dialect == .sqlite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGSERIAL PRIMARY KEY"),
                type TEXT NOT NULL, count \(integer) NOT NULL, items TEXT NOT NULL, created_at \(integer) NOT NULL,
                -- SQLite stores the commit's range of event rows instead of their JSON (items ''), and builds the
                -- JSON when packing: off its one writer, and the events' bytes are written once.
                first_event \(integer), last_event \(integer)
            );
            -- Messages, their body fixed when queued (every retry sends the same bytes under the same
            -- webhook-id), and a delivery per subscribed endpoint.
            CREATE TABLE webhook_messages (
                id TEXT PRIMARY KEY NOT NULL, type TEXT NOT NULL, body TEXT NOT NULL, created_at \(integer) NOT NULL
            );
            CREATE TABLE webhook_deliveries (
                message_id TEXT NOT NULL, endpoint_id TEXT NOT NULL, status TEXT NOT NULL,
                attempts \(integer) NOT NULL DEFAULT 0, created_at \(integer) NOT NULL, next_attempt_at \(integer),
                -- A claimed delivery is leased: another collector skips it until then, and when the claimer dies
                -- it is due again once the lease is over.
                leased_until \(integer) NOT NULL DEFAULT 0, first_attempt_at \(integer), last_attempt_at \(integer),
                last_status \(integer), last_error TEXT, delivered_at \(integer),
                PRIMARY KEY (message_id, endpoint_id)
            )\(withoutRowID);
            CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
            CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);
            CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries (created_at);
            CREATE TABLE alerts (
                id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
                window_ms \(integer) NOT NULL, threshold \(real) NOT NULL, min_sent \(integer) NOT NULL,
                grace_ms \(integer) NOT NULL, campaign TEXT, app TEXT, created_at \(integer) NOT NULL,
                state TEXT NOT NULL, since \(integer) NOT NULL, value \(real), detail TEXT, evaluated_at \(integer)
            );
            CREATE TABLE alert_history (
                alert_id TEXT NOT NULL, at \(integer) NOT NULL, state TEXT NOT NULL, value \(real), detail TEXT
            );
            CREATE INDEX alert_history_by_alert ON alert_history (alert_id, at);
            -- One row: when alerts were last evaluated, so one collector evaluates per interval.
            CREATE TABLE alert_evaluation (id INTEGER PRIMARY KEY, evaluated_at \(integer) NOT NULL);
            INSERT INTO alert_evaluation (id, evaluated_at) VALUES (1, 0);
            """
    }

    /// ``sql(dialect:)`` as single statements, for drivers that run one at a time.
    package static func statements(dialect: SQLDialect) -> [String] {
        sql(dialect: dialect).components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    /// The columns an alert row is read by, in ``Alert/init(row:)``'s order.
    package static let alertColumns =
        "id, name, kind, window_ms, threshold, min_sent, grace_ms, campaign, app, created_at, state, since, value, detail, evaluated_at"

    /// The columns a delivery is listed by, in ``WebhookDelivery``'s order (`d` deliveries, `m` messages).
    package static let deliveryColumns = """
        d.message_id, d.endpoint_id, m.type, d.status, d.attempts, d.last_status, d.last_error, d.created_at,
        d.last_attempt_at, d.next_attempt_at, d.delivered_at
        """
}

extension Alert {
    /// An alert from its row's values (``WebhookSchema/alertColumns``), as either engine decodes them.
    package init?(
        id: String, name: String, kind: String, windowMillis: Int64, threshold: Double, minSent: Int64, graceMillis: Int64,
        campaign: String?, app: String?, createdAtMillis: Int64, state: String, sinceMillis: Int64, value: Double?,
        detail: String?, evaluatedAtMillis: Int64?
    ) {
        guard let kind = AlertKind(rawValue: kind), let state = AlertState(rawValue: state) else { return nil }
        self.init(
            id: id,
            rule: AlertRule(
                name: name, kind: kind, windowMillis: windowMillis, threshold: threshold, minSent: minSent,
                graceMillis: graceMillis, campaign: campaign, app: app),
            createdAtMillis: createdAtMillis, state: state, sinceMillis: sinceMillis, value: value, detail: detail,
            evaluatedAtMillis: evaluatedAtMillis)
    }
}
