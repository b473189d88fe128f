/// A raw event as stored: what ingest received (device id keyed, time clamped), or what an import, a prune
/// or a rebuild reads back.
package struct StoredEvent: Sendable, Hashable {
    package var pushID: String
    package var kind: EventKind
    package var action: String
    package var receivedAt: Int64
    package var eventTime: Int64
    /// Known for imported and read-back events; `nil` for ingest, where the dedupe keys decide.
    package var duplicate: Bool?
    package var deviceID: String?
    package var receiptID: String?
    package var platform: String?
    package var appVersion: String?
    package var osVersion: String?
    package var app: String?
    package var name: String?
    package var valueMicros: Int64?
    package var currency: String?
    /// A session's or conversion's credit as stored; `nil` for displays and actions.
    package var attribution: Attribution?
    package var media: ReceiptMedia?
    package var extensionMillis: Int64?
    package var notificationPermission: NotificationPermission?

    /// An ingested event (device id already keyed), received at `receivedAt`: its time is clamped here.
    package init(_ event: IncomingEvent, receivedAt: Int64) {
        self.init(
            pushID: event.pushID, kind: event.kind, action: event.action, receivedAt: receivedAt,
            eventTime: EventTime.clamp(deviceTimeMillis: event.deviceTimeMillis, receivedAtMillis: receivedAt),
            duplicate: nil, deviceID: event.deviceID, receiptID: event.receiptID, platform: event.platform,
            appVersion: event.appVersion, osVersion: event.osVersion)
        app = event.app
        name = event.name
        valueMicros = event.valueMicros
        currency = event.currency
        media = event.media
        extensionMillis = event.extensionMillis
        notificationPermission = event.notificationPermission
    }

    package init(
        pushID: String, kind: EventKind, action: String, receivedAt: Int64, eventTime: Int64, duplicate: Bool?,
        deviceID: String? = nil, receiptID: String? = nil, platform: String? = nil, appVersion: String?,
        osVersion: String?
    ) {
        self.pushID = pushID
        self.kind = kind
        self.action = action
        self.receivedAt = receivedAt
        self.eventTime = eventTime
        self.duplicate = duplicate
        self.deviceID = deviceID
        self.receiptID = receiptID
        self.platform = platform
        self.appVersion = appVersion
        self.osVersion = osVersion
    }

    package var dedupeKeys: [String] {
        DedupeKeys.of(kind: kind, action: action, deviceID: deviceID, receiptID: receiptID)
    }

    /// The columns an export reads (``EventColumns/exported``), in ``EventColumn``'s order.
    package static let storedColumns = EventColumns.names(EventColumns.exported)

    /// The columns a prune or rebuild reads an event back by, in ``init(countedRow:)``'s order: only what
    /// counting needs.
    package static let countedColumns = """
        push_id, kind, action, received_at, event_time, duplicate, app_version, os_version, value_micros, currency, \
        attribution, attributed_push, platform, media, extension_ms
        """
}
