/// What became of a push's rich media when the notification service extension handed its content back.
/// A receipt that does not say is unknown (`nil` where it is held), never ``none``.
public enum ReceiptMedia: String, Sendable, Hashable, CaseIterable {
    /// The push asked for no media.
    case none
    /// The media was downloaded and attached.
    case attached
    /// The download or the attachment failed; the plain content was shown.
    case failed
    /// The extension ran out of time (`serviceExtensionTimeWillExpire`) and the fallback was shown.
    case timedOut = "timed_out"

    /// Every raw value, which a field read into this type accepts (``ClientField/Rule/oneOf(accepted:)``), made once.
    package static let rawValues = allCases.map(\.rawValue)
}

/// A device's notification setting as a session reports it (the names of `UNAuthorizationStatus`).
public enum NotificationPermission: String, Sendable, Hashable, CaseIterable {
    case authorized, provisional, ephemeral, denied
    case notDetermined = "not_determined"

    /// Whether a device with this setting can show a push at all.
    public var canShow: Bool { self == .authorized || self == .provisional || self == .ephemeral }

    /// Every raw value, which a field read into this type accepts (``ClientField/Rule/oneOf(accepted:)``), made once.
    package static let rawValues = allCases.map(\.rawValue)
}

/// The limits of a receipt's `extension_ms`: iOS gives a service extension about 30 seconds, so a minute
/// bounds every honest report and refuses a value in the wrong unit.
public enum ExtensionTime {
    public static let maximumMillis: Int64 = 60_000
}
