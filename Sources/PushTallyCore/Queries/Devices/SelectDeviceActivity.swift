extension Queries {
    /// What the raw events still stored say of some devices' clients (first event, last display, last open, last
    /// session and its setting): a device's state starts from it when the backend first posts a delivery for it,
    /// and the events trigger (``DeviceStateSchema``) keeps it from then on.
    package struct SelectDeviceActivity: RowQuery {
        package let keys: [String]

        package init(keys: [String]) { self.keys = keys }

        package func sql(_ dialect: SQLDialect) -> String {
            let (display, action, session) = (EventKind.display.rawValue, EventKind.action.rawValue, EventKind.session.rawValue)
            return """
                SELECT device_id, min(event_time),
                    max(CASE WHEN kind = \(display) THEN event_time END),
                    max(CASE WHEN kind = \(action) AND action <> '\(StandardAction.dismiss)' THEN event_time END),
                    max(CASE WHEN kind = \(session) THEN event_time END),
                    (SELECT p.notification_permission FROM events p
                     WHERE p.device_id = events.device_id AND p.kind = \(session) AND p.notification_permission IS NOT NULL
                     ORDER BY p.event_time DESC LIMIT 1)
                FROM events WHERE device_id IN (\(keys.map { _ in "?" }.joined(separator: ", "))) GROUP BY device_id
                """
        }

        package var values: [QueryValue] { keys.map { .text($0) } }

        package func row(_ columns: some QueryRow) throws -> DeviceActivity {
            DeviceActivity(
                deviceKey: try columns.text(0), firstClientMillis: try columns.optionalInt64(1), lastDisplayMillis: try columns.optionalInt64(2),
                lastOpenMillis: try columns.optionalInt64(3), lastSessionMillis: try columns.optionalInt64(4),
                permission: try columns.optionalText(5))
        }
    }
}

/// A device's client activity as raw events tell it (``Queries/SelectDeviceActivity``).
package struct DeviceActivity: Sendable, Hashable {
    package var deviceKey: String
    package var firstClientMillis: Int64?
    package var lastDisplayMillis: Int64?
    package var lastOpenMillis: Int64?
    package var lastSessionMillis: Int64?
    package var permission: String?
}

extension DeviceState {
    /// A new state's client times from what raw events said of the device.
    package mutating func start(from activity: DeviceActivity) {
        firstClientMillis = activity.firstClientMillis
        lastDisplayMillis = activity.lastDisplayMillis
        lastOpenMillis = activity.lastOpenMillis
        lastSessionMillis = activity.lastSessionMillis
        permission = activity.permission
    }
}
