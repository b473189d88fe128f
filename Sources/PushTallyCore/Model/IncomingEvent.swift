/// A display receipt or an action, validated and ready to store.
public struct IncomingEvent: Sendable, Hashable {
    /// The push's own id, as the app's payload carries it.
    public var pushID: String
    /// `.display` for receipts, `.action` for taps.
    public var kind: EventKind
    /// The normalised action identifier (`open`, `dismiss`, `view`...); empty for display receipts.
    public var action: String
    /// An install id or hashed token; with `pushID` it recognises retries.
    public var deviceID: String?
    /// A client-made id that makes retries idempotent.
    public var receiptID: String?
    /// The device's clock at the event, in milliseconds since 1970; clamped when stored.
    public var deviceTimeMillis: Int64?
    public var platform: String?
    public var appVersion: String?
    public var osVersion: String?

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
