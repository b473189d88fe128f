/// What a reported event says happened to a notification.
public enum EventKind: Int, Sendable, Codable, Hashable {
    /// The Notification Service Extension saw the push about to be shown.
    case display = 0
    /// The user acted on the notification (default tap, dismiss or a custom action button).
    case action = 1
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
