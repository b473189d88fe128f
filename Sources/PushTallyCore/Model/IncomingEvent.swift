/// A display receipt, an action, an app session or a conversion, validated and ready to store.
public struct IncomingEvent: Sendable, Hashable {
    /// The push's own id, as the app's payload carries it; empty for sessions and conversions.
    public var pushID: String
    /// `.display` for receipts, `.action` for taps, `.session`, `.conversion`.
    public var kind: EventKind
    /// The normalised action identifier (`open`, `dismiss`, `view`...); empty for display receipts.
    public var action: String
    /// An install id or hashed token; with `pushID` it recognises retries.
    public var deviceID: String?
    /// A client-made id that makes retries idempotent: `receipt_id`, a session's `session_id` or a
    /// conversion's `conversion_id`.
    public var receiptID: String?
    /// The device's clock at the event, in milliseconds since 1970; clamped when stored.
    public var deviceTimeMillis: Int64?
    public var platform: String?
    public var appVersion: String?
    public var osVersion: String?
    /// The app a session was in (a bundle id, say); sessions only.
    public var app: String?
    /// What a conversion was (`purchase`, `signup`...): conversions only.
    public var name: String?
    /// A conversion's value in millionths of its ``currency``'s unit, so sums are exact.
    public var valueMicros: Int64?
    /// The ISO 4217 code of ``valueMicros``.
    public var currency: String?
    /// A display's rich-media outcome; `nil` when the receipt did not say (unknown, never ``ReceiptMedia/none``).
    public var media: ReceiptMedia?
    /// A display's milliseconds from the extension's start to handing its content back.
    public var extensionMillis: Int64?
    /// A session's notification setting; `nil` when the app did not say.
    public var notificationPermission: NotificationPermission?

    public init(
        pushID: String, kind: EventKind, action: String = "", deviceID: String? = nil, receiptID: String? = nil,
        deviceTimeMillis: Int64? = nil, platform: String? = nil, appVersion: String? = nil, osVersion: String? = nil
    ) {
        self.pushID = pushID
        self.kind = kind
        self.action = action
        self.deviceID = deviceID
        self.receiptID = receiptID
        self.deviceTimeMillis = deviceTimeMillis
        self.platform = platform
        self.appVersion = appVersion
        self.osVersion = osVersion
    }

    /// An app session of a device (its id already keyed when it reaches a store's writer).
    public static func session(
        deviceID: String, sessionID: String, deviceTimeMillis: Int64? = nil, app: String? = nil,
        appVersion: String? = nil
    ) -> IncomingEvent {
        var event = IncomingEvent(
            pushID: "", kind: .session, deviceID: deviceID, receiptID: sessionID, deviceTimeMillis: deviceTimeMillis,
            appVersion: appVersion)
        event.app = app
        return event
    }

    /// A conversion of a device; `conversionID`, when given, makes a retry count once.
    public static func conversion(
        deviceID: String, name: String, valueMicros: Int64? = nil, currency: String? = nil,
        conversionID: String? = nil, deviceTimeMillis: Int64? = nil
    ) -> IncomingEvent {
        var event = IncomingEvent(
            pushID: "", kind: .conversion, deviceID: deviceID, receiptID: conversionID,
            deviceTimeMillis: deviceTimeMillis)
        event.name = name
        event.valueMicros = valueMicros
        event.currency = currency
        return event
    }
}

/// How far back a device clock is believed: events are placed in [received - window, received].
public enum EventTime {
    public static let maximumDeviceLagMillis: Int64 = 7 * 24 * 3600 * 1000
    /// Rollup bucket width: 15 minutes, so that days in zones offset by :30 or :45 assemble exactly.
    public static let bucketMillis: Int64 = 15 * 60 * 1000

    /// The time an event is counted at: the device's clock, never later than receipt, never more than 7 days earlier.
    public static func clamp(deviceTimeMillis: Int64?, receivedAtMillis: Int64) -> Int64 {
        guard let device = deviceTimeMillis else { return receivedAtMillis }
        return min(max(device, receivedAtMillis - maximumDeviceLagMillis), receivedAtMillis)
    }

    /// The 15-minute bucket index (milliseconds since 1970 divided by the bucket width, floored).
    public static func bucket(ofMillis millis: Int64) -> Int64 {
        millis >= 0 ? millis / bucketMillis : (millis - bucketMillis + 1) / bucketMillis
    }
}
