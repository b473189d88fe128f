/// What FCM's own delivery data says of a push (or of a campaign row, summed): its events from the BigQuery
/// export, counted once per message, app instance and event.
public struct FCMFigures: Sendable, Hashable {
    /// Messages FCM accepted for delivery (`MESSAGE_ACCEPTED`).
    public var accepted: Int64 = 0
    /// Messages FCM reports delivered to the device (`MESSAGE_DELIVERED`).
    public var delivered: Int64 = 0
    /// FCM's error events by their name (`INVALID_REGISTRATION`, `QUOTA_EXCEEDED`...).
    public private(set) var failedByReason: [String: Int64] = [:]
    /// Unique displays on platforms FCM delivered none of these pushes to (an iOS display of a push FCM sent
    /// to Android only): left out of `displayed_of_delivered`, which would otherwise pass 100 % for a row that
    /// mixes platforms.
    public var otherPlatformDisplays: Int64 = 0

    public init() {}

    /// Every error event, whatever its name.
    public var failed: Int64 { failedByReason.values.reduce(0, +) }

    /// Adds `count` events named `event` (a name no longer known is counted as an error of its own name).
    package mutating func add(event: String, count: Int64) {
        switch FCMEvent(rawValue: event) {
        case .accepted?: accepted += count
        case .delivered?: delivered += count
        default: failedByReason[event, default: 0] += count
        }
    }

    package mutating func add(_ other: FCMFigures) {
        accepted += other.accepted
        delivered += other.delivered
        otherPlatformDisplays += other.otherPlatformDisplays
        for (reason, count) in other.failedByReason { failedByReason[reason, default: 0] += count }
    }

    /// The report columns, after the others (new columns go last: CSV readers may go by position):
    /// `displayed_of_delivered` is `displayed_unique / device_delivered`, counting only the displays on the
    /// platforms FCM delivered to (``otherPlatformDisplays`` out), `null` when FCM reported no delivery.
    package func columns(displayedUnique: Int64) -> [(String, ReportValue)] {
        [
            ("device_delivered", .integer(delivered)),
            ("displayed_of_delivered", .rate(Funnel.ratio(max(0, displayedUnique - otherPlatformDisplays), delivered))),
            ("fcm_accepted", .integer(accepted)),
            ("fcm_failed", .integer(failed)),
            // JSON: {"INVALID_REGISTRATION": 3}; CSV: one `fcm_failed:<EVENT>` column per error present.
            ("fcm_failed_reasons", .counts(failedByReason, csvPrefix: "fcm_failed:")),
        ]
    }
}

/// FCM events of one push that named one platform (a row of `rollup_fcm`), kept beside a push's figures for a
/// platform filter (``PushFigures/onPlatform(_:)``).
package struct PlatformFCM: Sendable, Hashable {
    package var platform: String
    package var event: String
    package var count: Int64
}

/// A send record's counts that named one platform, kept beside a push's figures for a platform filter.
package struct PlatformSends: Sendable, Hashable {
    package var platform: String
    package var targeted: Int64 = 0
    package var sent: Int64 = 0
    package var failed: [String: Int64] = [:]
}
