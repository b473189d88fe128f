import PushTallyCore

extension Queries {
    /// One raw event's mark on its device's `device_states` row (``DeviceClientTimes``): the first client time, the
    /// last display, open and session, and the notification setting a session states. Every `SET` reads the row
    /// as it was, so the setting is taken only from a session no older than the last one stored.
    enum NoteDeviceActivity {
        /// The event's values the statement reads, bound in this order from the first parameter.
        static let columns: [EventColumn] = [.eventTime, .kind, .action, .notificationPermission, .deviceID]

        static let sql: String = {
            let (display, action, session) = (EventKind.display.rawValue, EventKind.action.rawValue, EventKind.session.rawValue)
            return """
                UPDATE device_states SET
                    first_client_at = min(coalesce(first_client_at, ?1), ?1),
                    last_display_at = CASE WHEN ?2 = \(display) THEN max(coalesce(last_display_at, ?1), ?1) ELSE last_display_at END,
                    last_open_at = CASE WHEN ?2 = \(action) AND ?3 <> '\(StandardAction.dismiss)'
                        THEN max(coalesce(last_open_at, ?1), ?1) ELSE last_open_at END,
                    permission = CASE WHEN ?2 = \(session) AND ?4 IS NOT NULL AND (last_session_at IS NULL OR ?1 >= last_session_at)
                        THEN ?4 ELSE permission END,
                    last_session_at = CASE WHEN ?2 = \(session) THEN max(coalesce(last_session_at, ?1), ?1) ELSE last_session_at END
                WHERE device_id = ?5
                """
        }()
    }
}
