/// `device_states`: one row per device the backend posted deliveries for (``DeviceState``), on both engines. It
/// names a device by its keyed hash only, and `forget --device` deletes its row.
package enum DeviceStateSchema {
    package static let table = "device_states"

    /// The columns in the order every statement reads and writes them. `gone_notified_at` (when a `device.gone`
    /// webhook last named the device) is the notifier's alone (``Queries/ClaimGoneDevices``).
    package static let columns = [
        "device_id", "app", "platform", "sends", "last_sent_at", "last_outcome", "last_outcome_at", "recipient", "first_client_at",
        "last_display_at", "last_open_at", "last_session_at", "permission",
    ]

    /// The migration's statements, as they were released (a released migration keeps its DDL): the table, and the
    /// trigger that keeps its client times in the transaction that stores each raw event, whatever path stores it.
    /// PostgreSQL's runs once per statement over the statement's rows. SQLite's ran per row, and the migration
    /// after this one drops it: SQLite's writer keeps the times itself for the events that name a device.
    package static func migration(dialect sql: SQLDialect) -> [String] {
        let table = """
            CREATE TABLE device_states (
                device_id TEXT PRIMARY KEY NOT NULL, app TEXT NOT NULL, platform TEXT NOT NULL, sends TEXT NOT NULL,
                last_sent_at \(sql.integer) NOT NULL, last_outcome TEXT, last_outcome_at \(sql.integer), recipient TEXT,
                first_client_at \(sql.integer), last_display_at \(sql.integer), last_open_at \(sql.integer),
                last_session_at \(sql.integer), permission TEXT, gone_notified_at \(sql.integer))
            """
        let (display, action, session) = (EventKind.display.rawValue, EventKind.action.rawValue, EventKind.session.rawValue)
        switch sql {
        case .sqlite:
            return [
                table,
                "CREATE INDEX device_states_by_last_sent ON device_states (last_sent_at)",
                """
                CREATE TRIGGER events_device_activity AFTER INSERT ON events WHEN NEW.device_id IS NOT NULL BEGIN
                    UPDATE device_states SET
                        first_client_at = min(coalesce(first_client_at, NEW.event_time), NEW.event_time),
                        last_display_at = CASE WHEN NEW.kind = \(display)
                            THEN max(coalesce(last_display_at, NEW.event_time), NEW.event_time) ELSE last_display_at END,
                        last_open_at = CASE WHEN NEW.kind = \(action) AND NEW.action <> '\(StandardAction.dismiss)'
                            THEN max(coalesce(last_open_at, NEW.event_time), NEW.event_time) ELSE last_open_at END,
                        permission = CASE WHEN NEW.kind = \(session) AND NEW.notification_permission IS NOT NULL
                            AND (last_session_at IS NULL OR NEW.event_time >= last_session_at)
                            THEN NEW.notification_permission ELSE permission END,
                        last_session_at = CASE WHEN NEW.kind = \(session)
                            THEN max(coalesce(last_session_at, NEW.event_time), NEW.event_time) ELSE last_session_at END
                    WHERE device_id = NEW.device_id;
                END
                """,
            ]
        case .postgres:
            return [
                table,
                "CREATE INDEX device_states_by_last_sent ON device_states (last_sent_at)",
                """
                CREATE FUNCTION pushtally_device_activity() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    -- A deployment whose backend posts no deliveries keeps no states: nothing to read the rows for.
                    IF NOT EXISTS (SELECT 1 FROM device_states) THEN
                        RETURN NULL;
                    END IF;
                    UPDATE device_states d SET
                        first_client_at = LEAST(d.first_client_at, u.first_at),
                        last_display_at = GREATEST(d.last_display_at, u.display_at),
                        last_open_at = GREATEST(d.last_open_at, u.open_at),
                        permission = CASE WHEN u.permission IS NOT NULL
                            AND (d.last_session_at IS NULL OR u.permission_at >= d.last_session_at)
                            THEN u.permission ELSE d.permission END,
                        last_session_at = GREATEST(d.last_session_at, u.session_at)
                    FROM (
                        SELECT device_id, min(event_time) AS first_at,
                            max(event_time) FILTER (WHERE kind = \(display)) AS display_at,
                            max(event_time) FILTER (WHERE kind = \(action) AND action <> '\(StandardAction.dismiss)') AS open_at,
                            max(event_time) FILTER (WHERE kind = \(session)) AS session_at,
                            (array_agg(notification_permission ORDER BY event_time DESC)
                                FILTER (WHERE kind = \(session) AND notification_permission IS NOT NULL))[1] AS permission,
                            max(event_time) FILTER (WHERE kind = \(session) AND notification_permission IS NOT NULL) AS permission_at
                        FROM new_events WHERE device_id IS NOT NULL GROUP BY device_id
                        ORDER BY device_id) u
                    WHERE d.device_id = u.device_id;
                    RETURN NULL;
                END $$
                """,
                """
                CREATE TRIGGER events_device_activity AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
                FOR EACH STATEMENT EXECUTE FUNCTION pushtally_device_activity()
                """,
            ]
        }
    }
}

extension DeviceState {
    /// A row of ``DeviceStateSchema/columns`` from `offset`.
    package init(row columns: some QueryRow, offset: Int = 0) throws {
        self.init(
            deviceKey: try columns.text(offset), app: try columns.text(offset + 1), platform: try columns.text(offset + 2),
            sends: DeviceSends(text: try columns.text(offset + 3)), lastOutcome: try columns.optionalText(offset + 5),
            lastOutcomeMillis: try columns.optionalInt64(offset + 6), recipient: try columns.optionalText(offset + 7),
            firstClientMillis: try columns.optionalInt64(offset + 8), lastDisplayMillis: try columns.optionalInt64(offset + 9),
            lastOpenMillis: try columns.optionalInt64(offset + 10), lastSessionMillis: try columns.optionalInt64(offset + 11),
            permission: try columns.optionalText(offset + 12))
    }

    /// The values of ``DeviceStateSchema/columns``.
    package var values: [QueryValue] {
        [
            .text(deviceKey), .text(app), .text(platform), .text(sends.text), .integer(sends.lastMillis ?? 0), .text(lastOutcome),
            .integer(lastOutcomeMillis),
            .text(recipient), .integer(firstClientMillis), .integer(lastDisplayMillis), .integer(lastOpenMillis),
            .integer(lastSessionMillis), .text(permission),
        ]
    }
}
