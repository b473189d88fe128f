import Foundation

/// One raw event as exported: stored fields only (device ids stay keyed hashes).
public struct ExportedEvent: Codable, Sendable, Hashable {
    /// The event's sequence number in its source database.
    public var seq: Int64
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
    public static let currentVersion = 3

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
    }

    /// Each kind's name in exports.
    static let kindNames: [EventKind: String] = [
        .display: "display", .action: "action", .session: "session", .conversion: "conversion",
    ]
}

extension StoredEvent {
    /// An imported event as it is stored again: its flags and times as exported, its action normalised.
    /// Sessions and conversions come without a credit: the importing store attributes them.
    package init(imported event: ExportedEvent) {
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
    }
}
