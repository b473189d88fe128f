/// The `event` of a row of Firebase Cloud Messaging's BigQuery export of message delivery events: what FCM did
/// with one message to one app instance.
public enum FCMEvent: String, Sendable, Hashable, CaseIterable {
    /// FCM accepted the message for delivery.
    case accepted = "MESSAGE_ACCEPTED"
    /// The message reached the FCM SDK on the device (Android only).
    case delivered = "MESSAGE_DELIVERED"
    case missingRegistrations = "MISSING_REGISTRATIONS"
    case unauthorizedRegistration = "UNAUTHORIZED_REGISTRATION"
    case internalError = "MESSAGE_RECEIVED_INTERNAL_ERROR"
    case mismatchSenderID = "MISMATCH_SENDER_ID"
    case quotaExceeded = "QUOTA_EXCEEDED"
    case invalidRegistration = "INVALID_REGISTRATION"
    case invalidPackageName = "INVALID_PACKAGE_NAME"
    case invalidAPNsCredential = "INVALID_APNS_CREDENTIAL"
    case invalidParameters = "INVALID_PARAMETERS"
    case payloadTooLarge = "PAYLOAD_TOO_LARGE"
    case authenticationError = "AUTHENTICATION_ERROR"
    case invalidTTL = "INVALID_TTL"

    /// Whether FCM reports the message as not sent (every event but acceptance and delivery).
    public var isError: Bool { self != .accepted && self != .delivered }

    /// The names the export uses, for error messages.
    public static let names: String = allCases.map(\.rawValue).joined(separator: ", ")
}
