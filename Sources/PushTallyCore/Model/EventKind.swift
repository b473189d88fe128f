/// What a reported event says happened to a notification.
public enum EventKind: Int, Sendable, Codable, Hashable {
    /// The Notification Service Extension saw the push about to be shown.
    case display = 0
    /// The user acted on the notification (default tap, dismiss or a custom action button).
    case action = 1
    /// The app became active on a device (`POST /v1/sessions`): an open that a push may have caused.
    case session = 2
    /// Something the app counts as a success (`POST /v1/conversions`), with an optional value.
    case conversion = 3

    /// Displays and actions name a push and count into the push rollups; sessions and conversions name none:
    /// they are attributed to a push by ``AttributionPlanner`` and count into the outcome rollups.
    public var namesPush: Bool { self == .display || self == .action }
}

/// Action identifiers with a fixed meaning in reports.
public enum StandardAction {
    /// The default tap on the notification.
    public static let open = "open"
    /// The user dismissed the notification (only for categories with `.customDismissAction`).
    public static let dismiss = "dismiss"

    /// Maps Apple's framework identifiers to the names reports use; other identifiers pass through.
    public static func normalise(_ identifier: String) -> String {
        switch identifier {
        case "com.apple.UNNotificationDefaultActionIdentifier", "UNNotificationDefaultActionIdentifier":
            return open
        case "com.apple.UNNotificationDismissActionIdentifier", "UNNotificationDismissActionIdentifier":
            return dismiss
        default:
            return identifier
        }
    }
}
