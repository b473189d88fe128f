/// One row of FCM's BigQuery export of message events, as PushTally keeps it: the key that makes a re-import
/// count nothing twice (message, app instance, event), the push it counts for (its `analytics_label`, which
/// the backend sets to the push id) and the platform FCM sent it to.
public struct FCMExportRow: Sendable, Hashable {
    public var messageID: String
    /// The app instance (`instance_id`); `nil` when the row names none (a topic's acceptance, a missing
    /// registration). Stores keep it keyed like device ids.
    public var instanceID: String?
    public var event: FCMEvent
    /// The push id the label names; `nil` for a message sent without a label.
    public var pushID: String?
    /// `android`, `ios` or `web` from `sdk_platform`; ``ReportGrouping/unknownPlatform`` otherwise.
    public var platform: String
    /// `event_timestamp`, milliseconds since 1970, when the row has one.
    public var eventMillis: Int64?

    public init(
        messageID: String, instanceID: String?, event: FCMEvent, pushID: String?,
        platform: String = ReportGrouping.unknownPlatform, eventMillis: Int64? = nil
    ) {
        self.messageID = messageID
        self.instanceID = instanceID
        self.event = event
        self.pushID = pushID
        self.platform = platform
        self.eventMillis = eventMillis
    }
}

/// What an import of FCM export rows did: `rows` read, of which `stored` were new and `duplicates` already
/// held (by message, instance and event); of the stored, `orphans` name a push nobody registered (yet) and
/// `unlabelled` name none.
public struct FCMImportSummary: Sendable, Hashable, Codable {
    public var rows: Int
    public var stored: Int
    public var duplicates: Int
    public var orphans: Int
    public var unlabelled: Int

    public init(rows: Int = 0, stored: Int = 0, duplicates: Int = 0, orphans: Int = 0, unlabelled: Int = 0) {
        self.rows = rows
        self.stored = stored
        self.duplicates = duplicates
        self.orphans = orphans
        self.unlabelled = unlabelled
    }

    /// The summaries of several files added up.
    public mutating func add(_ other: FCMImportSummary) {
        rows += other.rows
        stored += other.stored
        duplicates += other.duplicates
        orphans += other.orphans
        unlabelled += other.unlabelled
    }
}
