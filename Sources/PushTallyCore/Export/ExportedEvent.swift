import Foundation

/// One raw event as exported: stored fields only (device ids stay keyed hashes).
public struct ExportedEvent: Codable, Sendable, Hashable {
    /// The event's sequence number in its source database.
    public var seq: Int64
    /// The event's id, the same in every database it is copied to: `<database id>:<seq>` of the database that
    /// first stored it. What a warehouse dedupes on. (Format version 4 on; an import derives it from the
    /// header's source and `seq` when absent.)
    public var event_id: String?
    /// What the event is, in the feed's words: `receipt` (a display), `action`, `session` or `conversion`
    /// (format version 4 on); in the feed also `send` and `fcm_delivery`.
    public var type: String?
    /// The event feed's position after this event (``EventCursor``): a reader passes the last one it kept as
    /// `after`. Only the feed's lines carry it.
    public var cursor: String?
    public var push_id: String
    public var kind: String
    public var action: String?
    public var received_at: Int64
    public var event_time: Int64
    public var duplicate: Bool
    public var device_id: String?
    public var receipt_id: String?
    public var platform: String?
    public var app_version: String?
    public var os_version: String?
    /// Sessions: the app it was in. (Format version 2 on; absent before.)
    public var app: String?
    /// Conversions: what it was (`purchase`...).
    public var event: String?
    /// Conversions: the value in millionths of `currency`, exact.
    public var value_micros: Int64?
    public var currency: String?
    /// Displays: the rich-media outcome (`none`, `attached`, `failed`, `timed_out`). (Format version 3 on.)
    public var media: String?
    /// Displays: the extension's milliseconds.
    public var extension_ms: Int64?
    /// Sessions: the notification setting.
    public var notification_permission: String?
    /// Sends: the push's campaign when the record was stored.
    public var campaign: String?
    /// Sends: the record's batch (`""` for the totals of `PUT /v1/pushes/{id}`). A later line of the same push
    /// and batch replaces the earlier one's counts.
    public var batch_id: String?
    /// Sends: devices the backend addressed.
    public var targeted: Int64?
    /// Sends: devices the provider accepted the push for.
    public var sent: Int64?
    /// Sends: devices the provider refused (the sum of `failures`).
    public var failed: Int64?
    /// Sends: the provider's refusals as a JSON object of reason to count, reasons in order (`{}` for none).
    public var failures: String?
    /// Sends: when the backend sent the push, unix milliseconds, once it said.
    public var sent_at: Int64?
    /// FCM deliveries: FCM's message id.
    public var message_id: String?

    public init(
        seq: Int64, push_id: String, kind: String, action: String?, received_at: Int64, event_time: Int64,
        duplicate: Bool, device_id: String?, receipt_id: String?, platform: String?, app_version: String?,
        os_version: String?
    ) {
        self.seq = seq
        self.push_id = push_id
        self.kind = kind
        self.action = action
        self.received_at = received_at
        self.event_time = event_time
        self.duplicate = duplicate
        self.device_id = device_id
        self.receipt_id = receipt_id
        self.platform = platform
        self.app_version = app_version
        self.os_version = os_version
    }
}

/// The first line of an export: what it is, which version of the format, and where it came from.
public struct ExportHeader: Codable, Sendable, Hashable {
    public static let formatName = "pushtally-events"
    /// 2 added sessions and conversions (`kind` `session` / `conversion`); a version-1 reader refuses it
    /// rather than read a session as a display. 3 added `media`, `extension_ms` and `notification_permission`.
    /// 4 added `event_id` and `type`.
    public static let currentVersion = 4

    public var format: String
    public var version: Int
    /// The exporting database's id: an import skips events it already took from the same source.
    public var source: String
    public var exported_at: String

    public init(format: String, version: Int, source: String, exported_at: String) {
        self.format = format
        self.version = version
        self.source = source
        self.exported_at = exported_at
    }
}

extension ExportedEvent {
    /// A stored event as exported, `seq` being its sequence number in the exporting database.
    package init(_ event: StoredEvent, seq: Int64) {
        self.init(
            seq: seq, push_id: event.pushID, kind: Self.kindNames[event.kind]!,
            action: event.kind == .action ? event.action : nil, received_at: event.receivedAt,
            event_time: event.eventTime, duplicate: event.duplicate ?? false, device_id: event.deviceID,
            receipt_id: event.receiptID, platform: event.platform, app_version: event.appVersion,
            os_version: event.osVersion)
        app = event.app
        self.event = event.name
        value_micros = event.valueMicros
        currency = event.currency
        media = event.media?.rawValue
        extension_ms = event.extensionMillis
        notification_permission = event.notificationPermission?.rawValue
        event_id = event.eventID
    }

    /// Each kind's name in exports.
    static let kindNames: [EventKind: String] = [
        .display: "display", .action: "action", .session: "session", .conversion: "conversion",
    ]

    /// Each kind's `type` in the feed: what the event says happened, in the words the API's routes use.
    package static let typeNames: [EventKind: String] = [
        .display: "receipt", .action: "action", .session: "session", .conversion: "conversion",
    ]

    /// The id of an event stored in database `source` at `seq`, when it came from nowhere else.
    package static func eventID(source: String, seq: Int64) -> String { "\(source):\(seq)" }

    /// The event as database `source` names it: its own id (an imported event keeps the one it came with) and its
    /// type (a send record's and an FCM delivery's type is their kind).
    package mutating func identify(source: String) {
        if event_id == nil { event_id = Self.eventID(source: source, seq: seq) }
        type = Self.kindNames.first { $0.value == kind }.flatMap { Self.typeNames[$0.key] } ?? kind
    }
}

extension StoredEvent {
    /// An imported event as it is stored again: its flags and times as exported, its action normalised, its id
    /// the one it had (or, from an export older than ids, the one `source` would have given it).
    /// Sessions and conversions come without a credit: the importing store attributes them.
    package init(imported event: ExportedEvent, source: String) {
        let kind = ExportedEvent.kindNames.first { $0.value == event.kind }?.key ?? .display
        self.init(
            pushID: kind.namesPush ? event.push_id : "", kind: kind,
            action: kind == .action ? StandardAction.normalise(event.action ?? "") : "",
            receivedAt: event.received_at, eventTime: event.event_time, duplicate: event.duplicate,
            deviceID: event.device_id, receiptID: event.receipt_id, platform: event.platform,
            appVersion: event.app_version, osVersion: event.os_version)
        app = event.app
        name = event.event
        valueMicros = event.value_micros
        currency = event.currency
        media = event.media.flatMap(ReceiptMedia.init(rawValue:))
        extensionMillis = event.extension_ms
        notificationPermission = event.notification_permission.flatMap(NotificationPermission.init(rawValue:))
        eventID = event.event_id ?? ExportedEvent.eventID(source: source, seq: event.seq)
    }
}
