/// The app's notification setting, as a session reports it (`notification_permission`): the values of
/// `UNAuthorizationStatus`, under the names the collector takes.
public enum NotificationPermission: String, Sendable, Hashable, CaseIterable {
    /// The user allowed notifications.
    case authorized
    /// Delivered quietly to the notification center until the user decides (`.provisional`).
    case provisional
    /// Allowed for a limited time, as App Clips are (`.ephemeral`).
    case ephemeral
    /// The user turned notifications off.
    case denied
    /// The app has not asked yet.
    case notDetermined = "not_determined"
}
