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
    /// The id an imported event had where it was first stored; `nil` for an event first stored in this database.
    package var eventID: String?

    /// An ingested event (device id already keyed), received at `receivedAt`: its time is clamped here.
    ///
    /// Every field assigned in place, from a borrowed event: the writer builds one per receipt of a commit,
    /// and a delegating init would build the whole value once more and copy it.
    package init(_ event: borrowing IncomingEvent, receivedAt: Int64) {
        pushID = event.pushID
        kind = event.kind
        action = event.action
        self.receivedAt = receivedAt
        eventTime = EventTime.clamp(deviceTimeMillis: event.deviceTimeMillis, receivedAtMillis: receivedAt)
        duplicate = nil
        deviceID = event.deviceID
        receiptID = event.receiptID
        platform = event.platform
        appVersion = event.appVersion
        osVersion = event.osVersion
        app = event.app
        name = event.name
        valueMicros = event.valueMicros
        currency = event.currency
        attribution = nil
        media = event.media
        extensionMillis = event.extensionMillis
        notificationPermission = event.notificationPermission
        eventID = nil
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

    /// The columns a prune or rebuild reads an event back by (``init(countedRow:offset:)``): only what counting
    /// needs.
    package static let counted: [EventColumn] = [
        .pushID, .kind, .action, .receivedAt, .eventTime, .duplicate, .appVersion, .osVersion, .valueMicros, .currency,
        .attribution, .attributedPush, .platform, .media, .extensionMillis,
    ]

    /// ``counted``'s names, for a `SELECT`.
    package static let countedColumns = EventColumns.names(counted)

    /// An event read back by ``countedColumns``, from column `offset` of `row` on.
    package init(countedRow row: some QueryRow, offset: Int = 0) throws {
        try self.init(row: row, columns: Self.counted, offset: offset)
    }

    /// An event read back from a `SELECT` of `columns` (``EventColumns/names(_:)``), from cell `offset` of `row`
    /// on: each cell decoded by its column's declared type and set by its ``EventColumn`` case, the same on both
    /// engines, so a statement's column list and its reading cannot disagree. Columns not read keep their
    /// defaults (no device, no credit).
    package init(row: some QueryRow, columns: [EventColumn], offset: Int = 0) throws {
        self.init(pushID: "", kind: .display, action: "", receivedAt: 0, eventTime: 0, duplicate: false, appVersion: nil, osVersion: nil)
        var credit: (code: Int64?, pushID: String?) = (nil, nil)
        for (index, column) in columns.enumerated() {
            let value: EventValue =
                switch column.type {
                case .text: .text(try row.optionalText(offset + index))
                case .integer: .integer(try row.optionalInt64(offset + index))
                case .boolean: .boolean(try row.boolean(offset + index))
                }
            column.read(value, into: &self, credit: &credit)
        }
        attribution = Attribution(code: credit.code.map { Int($0) }, pushID: credit.pushID)
    }
}
