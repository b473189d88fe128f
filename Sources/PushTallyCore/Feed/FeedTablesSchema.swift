/// The event feed's other tables: `send_records`, every send record the push backend stored, one row each time
/// (`push_sends` keeps only each record's latest counts), and a position for each row of `fcm_deliveries`.
///
/// Both take their positions from raw events' (``EventCursor``), so one cursor orders all three and an event id
/// (`<database id>:<position>`) names one row in any of them: on PostgreSQL the events' id sequence and the
/// storing transaction; on SQLite the next position past every raw event and the floor, which the writer then
/// raises to it (the next raw event is stored past it, ``EventCursor``).
package enum FeedTablesSchema {
    /// The send log's table.
    package static let sendRecords = "send_records"

    /// PostgreSQL's next position: the raw events' id sequence, whatever the identity's sequence is named.
    package static let nextPostgresPosition = "nextval(pg_get_serial_sequence('events', 'id')::regclass)"

    /// The migration's statements, as they were released (a released migration keeps its DDL). On SQLite the
    /// backfill's positions start after `top` (``SQLDialect/sqlite`` only; PostgreSQL draws them).
    package static func migration(dialect sql: SQLDialect, top: Int64 = 0) -> [String] {
        switch sql {
        case .sqlite:
            [
                "CREATE TABLE send_records (id INTEGER PRIMARY KEY NOT NULL, \(sendColumns(sql)))",
                "ALTER TABLE fcm_deliveries ADD COLUMN id INTEGER",
                backfillSends(position: "\(top) + row_number() OVER (ORDER BY s.push_id, s.batch_id)", sql),
                """
                UPDATE fcm_deliveries SET id = numbered.position FROM (
                    SELECT message_id, instance_key, event, (SELECT count(*) FROM send_records) + \(top)
                        + row_number() OVER (ORDER BY imported_at, message_id, instance_key, event) AS position
                    FROM fcm_deliveries) AS numbered
                WHERE fcm_deliveries.message_id = numbered.message_id AND fcm_deliveries.instance_key = numbered.instance_key
                    AND fcm_deliveries.event = numbered.event
                """,
                "CREATE INDEX fcm_deliveries_by_position ON fcm_deliveries (id)",
            ]
        case .postgres:
            [
                """
                CREATE TABLE send_records (
                    id BIGINT PRIMARY KEY DEFAULT \(nextPostgresPosition), tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
                    \(sendColumns(sql)))
                """,
                "CREATE INDEX send_records_by_commit ON send_records (tx, id)",
                backfillSends(position: nextPostgresPosition, sql),
                // A volatile default fills every row already stored as the column is added: each gets a position,
                // after every raw event's, in the migration's own transaction, so a reader already past every
                // stored event reads them next.
                """
                ALTER TABLE fcm_deliveries ADD COLUMN id BIGINT NOT NULL DEFAULT \(nextPostgresPosition),
                    ADD COLUMN tx xid8 NOT NULL DEFAULT pg_current_xact_id()
                """,
                "CREATE INDEX fcm_deliveries_by_commit ON fcm_deliveries (tx, id)",
            ]
        }
    }

    private static func sendColumns(_ sql: SQLDialect) -> String {
        """
        push_id TEXT NOT NULL, batch_id TEXT NOT NULL, campaign TEXT NOT NULL, app TEXT, sent_at \(sql.integer),
        targeted \(sql.integer) NOT NULL, sent \(sql.integer) NOT NULL, failed \(sql.integer) NOT NULL,
        failures TEXT NOT NULL, platform TEXT, recorded_at \(sql.integer) NOT NULL
        """
    }

    /// One row per send record stored before the log: its counts as they stand, recorded when its push was last
    /// changed. Failures as ``SendRecordText/failures(_:)`` writes them.
    private static func backfillSends(position: String, _ sql: SQLDialect) -> String {
        let quoted = sql == .sqlite ? "json_quote(reason)" : "to_json(reason)::text"
        let joined = sql == .sqlite
            ? "group_concat(\(quoted) || ':' || count, ',')"
            : "string_agg(\(quoted) || ':' || count, ',' ORDER BY reason)"
        // SQLite's group_concat takes rows in the order its input gives them: the inner query orders them.
        let failures = sql == .sqlite ? "(SELECT * FROM push_failures ORDER BY push_id, batch_id, reason)" : "push_failures"
        return """
            INSERT INTO send_records (
                id, push_id, batch_id, campaign, app, sent_at, targeted, sent, failed, failures, platform, recorded_at)
            SELECT \(position), s.push_id, s.batch_id, p.campaign, p.app, p.sent_at, s.targeted, s.sent,
                COALESCE(f.failed, 0), COALESCE(f.failures, '{}'), sp.platform, p.updated_at
            FROM push_sends s JOIN pushes p ON p.push_id = s.push_id
            LEFT JOIN (
                SELECT push_id, batch_id, CAST(sum(count) AS \(sql.integer)) AS failed, '{' || \(joined) || '}' AS failures
                FROM \(failures) AS ordered WHERE count > 0 GROUP BY push_id, batch_id) f
                ON f.push_id = s.push_id AND f.batch_id = s.batch_id
            LEFT JOIN push_send_platforms sp ON sp.push_id = s.push_id AND sp.batch_id = s.batch_id
            ORDER BY s.push_id, s.batch_id
            """
    }
}

/// How a send record's refusals read in the feed: a JSON object of reason to count, reasons in order, the
/// same text the log's backfill builds in SQL (reasons are printable, so only `"` and `\` are escaped).
package enum SendRecordText {
    package static func failures(_ counts: SendCounts) -> String {
        "{" + counts.failureRows.map { "\(JSONText.quoted($0.reason)):\($0.count)" }.joined(separator: ",") + "}"
    }
}
