/// The columns of raw `events`, named, typed and valued once for both engines: the `CREATE TABLE`, every
/// statement that writes rows and the export's column list are rendered from this list.
///
/// Adding a column is a case here (its name, type, value, the field clients send for it and whether displays and
/// actions write it) plus a migration per engine running ``SQLDialect/addEventColumn(_:)``.
package enum EventColumn: CaseIterable, Sendable {
    case pushID, kind, action, receivedAt, eventTime, duplicate, deviceID, receiptID, platform, appVersion, osVersion
    /// A display's rich-media outcome (``ReceiptMedia``) and extension time: receipt columns, so they come
    /// before the ones only sessions and conversions write.
    case media, extensionMillis
    case app, name, valueMicros, currency
    /// A session's or conversion's credit (``Attribution/code``) and its credited push.
    case attribution, attributedPush
    /// A session's notification setting.
    case notificationPermission
    /// An imported event's id in the database it was first stored in (``ExportedEvent/event_id``); `NULL` for an
    /// event first stored here, whose id is this database's id and its position. Only imports fill it, so it is
    /// not a receipt column: receipts never bind it.
    case eventID

    package var name: String {
        switch self {
        case .pushID: "push_id"
        case .kind: "kind"
        case .action: "action"
        case .receivedAt: "received_at"
        case .eventTime: "event_time"
        case .duplicate: "duplicate"
        case .deviceID: "device_id"
        case .receiptID: "receipt_id"
        case .platform: "platform"
        case .appVersion: "app_version"
        case .osVersion: "os_version"
        case .app: "app"
        case .name: "name"
        case .valueMicros: "value_micros"
        case .currency: "currency"
        case .attribution: "attribution"
        case .attributedPush: "attributed_push"
        case .media: "media"
        case .extensionMillis: "extension_ms"
        case .notificationPermission: "notification_permission"
        case .eventID: "event_id"
        }
    }

    package var type: ColumnType {
        switch self {
        case .kind, .receivedAt, .eventTime, .valueMicros, .attribution, .extensionMillis: .integer
        case .duplicate: .boolean
        case .pushID, .action, .deviceID, .receiptID, .platform, .appVersion, .osVersion, .app, .name, .currency,
            .attributedPush, .media, .notificationPermission, .eventID:
            .text
        }
    }

    /// The field clients send for this column and what it may hold; `nil` for a column the server fills. The
    /// parsers keep exactly these fields (and the ids kept in `receipt_id`, ``ClientField/all``) and ignore any
    /// other, so older servers accept newer clients.
    package var clientField: ClientField? {
        switch self {
        case .pushID: ClientField("push_id", .text(limit: 128))
        case .action: ClientField("action", .text(limit: 64))
        case .eventTime: ClientField("ts", .time)
        case .deviceID: ClientField("device_id", .text(limit: 128))
        case .receiptID: ClientField("receipt_id", .text(limit: 128))
        case .platform: ClientField("platform", .text(limit: 32))
        case .appVersion: ClientField("app_version", .text(limit: 64))
        case .osVersion: ClientField("os_version", .text(limit: 64))
        case .app: ClientField("app", .text(limit: 128))
        case .name: ClientField("event", .text(limit: 64))
        case .valueMicros: ClientField("value", .money)
        case .currency: ClientField("currency", .text(limit: 128))
        case .media: ClientField("media", .oneOf(accepted: ReceiptMedia.rawValues))
        case .extensionMillis: ClientField("extension_ms", .wholeNumber(0...ExtensionTime.maximumMillis, unit: "milliseconds"))
        case .notificationPermission: ClientField("notification_permission", .oneOf(accepted: NotificationPermission.rawValues))
        case .kind, .receivedAt, .duplicate, .attribution, .attributedPush, .eventID: nil
        }
    }

    /// `NOT NULL` columns: every event has them.
    package var isRequired: Bool {
        switch self {
        case .pushID, .kind, .action, .receivedAt, .eventTime, .duplicate: true
        default: false
        }
    }

    /// Whether displays and actions fill it: their rows name only these columns, so receipts (the bulk of
    /// ingest) do not pay for the ones they never fill.
    package var isReceiptColumn: Bool {
        switch self {
        case .app, .name, .valueMicros, .currency, .attribution, .attributedPush, .notificationPermission, .eventID: false
        default: true
        }
    }

    /// The value stored for `event` (a retry when `duplicate`; `credit` for a session or conversion).
    /// Sessions and conversions name no push or action: their credit says which push they belong to.
    package func value(of event: StoredEvent, duplicate: Bool, credit: Attribution?) -> EventValue {
        switch self {
        case .pushID: .text(event.kind.namesPush ? event.pushID : "")
        case .kind: .integer(Int64(event.kind.rawValue))
        case .action: .text(event.kind.namesPush ? event.action : "")
        case .receivedAt: .integer(event.receivedAt)
        case .eventTime: .integer(event.eventTime)
        case .duplicate: .boolean(duplicate)
        case .deviceID: .text(event.deviceID)
        case .receiptID: .text(event.receiptID)
        case .platform: .text(event.platform)
        case .appVersion: .text(event.appVersion)
        case .osVersion: .text(event.osVersion)
        case .app: .text(event.app)
        case .name: .text(event.name)
        case .valueMicros: .integer(event.valueMicros)
        case .currency: .text(event.currency)
        case .attribution: .integer(credit.map { Int64($0.code) })
        case .attributedPush: .text(credit?.pushID)
        case .media: .text(event.media?.rawValue)
        case .extensionMillis: .integer(event.extensionMillis)
        case .notificationPermission: .text(event.notificationPermission?.rawValue)
        case .eventID: .text(event.eventID)
        }
    }
}

extension EventColumn {
    /// Sets `event`'s field from `value` as stored: the reverse of ``value(of:duplicate:credit:)``, for an event
    /// read back (``StoredEvent/init(countedRow:offset:)``). A credit is two columns, gathered in `credit`.
    func read(_ value: EventValue, into event: inout StoredEvent, credit: inout (code: Int64?, pushID: String?)) {
        switch (self, value) {
        case (.pushID, .text(let text)): event.pushID = text ?? ""
        case (.kind, .integer(let code)): event.kind = code.flatMap { EventKind(rawValue: Int($0)) } ?? .display
        case (.action, .text(let text)): event.action = text ?? ""
        case (.receivedAt, .integer(let time)): event.receivedAt = time ?? 0
        case (.eventTime, .integer(let time)): event.eventTime = time ?? 0
        case (.duplicate, .boolean(let duplicate)): event.duplicate = duplicate
        case (.deviceID, .text(let text)): event.deviceID = text
        case (.receiptID, .text(let text)): event.receiptID = text
        case (.platform, .text(let text)): event.platform = text
        case (.appVersion, .text(let text)): event.appVersion = text
        case (.osVersion, .text(let text)): event.osVersion = text
        case (.app, .text(let text)): event.app = text
        case (.name, .text(let text)): event.name = text
        case (.valueMicros, .integer(let micros)): event.valueMicros = micros
        case (.currency, .text(let text)): event.currency = text
        case (.attribution, .integer(let code)): credit.code = code
        case (.attributedPush, .text(let text)): credit.pushID = text
        case (.media, .text(let text)): event.media = text.flatMap(ReceiptMedia.init(rawValue:))
        case (.extensionMillis, .integer(let millis)): event.extensionMillis = millis
        case (.notificationPermission, .text(let text)): event.notificationPermission = text.flatMap(NotificationPermission.init(rawValue:))
        case (.eventID, .text(let text)): event.eventID = text
        default: break
        }
    }
}

/// One stored value of a raw event, as ``EventColumn/value(of:duplicate:credit:)`` gives it.
package enum EventValue: Sendable, Hashable {
    case text(String?)
    case integer(Int64?)
    case boolean(Bool)
}

/// The column lists statements name, each in ``EventColumn``'s order.
package enum EventColumns {
    /// Every column: what session and conversion rows and imports write.
    package static let all = EventColumn.allCases
    /// What display and action rows write.
    package static let receipt = EventColumn.allCases.filter(\.isReceiptColumn)
    /// The columns `events` was created with; later ones came by migration (attribution's, then any added).
    package static let created: [EventColumn] = [
        .pushID, .kind, .action, .receivedAt, .eventTime, .duplicate, .deviceID, .receiptID, .platform, .appVersion,
        .osVersion,
    ]
    /// A display's media outcome and extension time and a session's notification setting, added by one
    /// migration per engine.
    package static let mediaAndPermission: [EventColumn] = [.media, .extensionMillis, .notificationPermission]
    /// An imported event's original id, added by one migration per engine.
    package static let eventIdentity: [EventColumn] = [.eventID]
    /// What an export carries of each event (its credit is recomputed where it is imported).
    package static let exported = EventColumn.allCases.filter { $0 != .attribution && $0 != .attributedPush }

    package static func names(_ columns: [EventColumn]) -> String {
        columns.map(\.name).joined(separator: ", ")
    }
}

extension SQLDialect {
    /// `INSERT INTO events (…)` naming `columns`: each engine follows it with its rows (SQLite one row of
    /// placeholders, PostgreSQL a `VALUES` list or its prepared statement's `unnest`).
    package static func eventInsert(_ columns: [EventColumn]) -> String {
        "INSERT INTO events (\(EventColumns.names(columns)))"
    }

    /// A column's definition, as `CREATE TABLE` and `ALTER TABLE … ADD COLUMN` state it.
    package func definition(_ column: EventColumn) -> String {
        "\(column.name) \(type(column.type))\(column.isRequired ? " NOT NULL" : "")"
    }

    /// The migration step that adds `column` to an existing `events` table.
    package func addEventColumn(_ column: EventColumn) -> String {
        "ALTER TABLE events ADD COLUMN \(definition(column))"
    }

    /// `CREATE TABLE events` with the columns it was created with. Raw events are append-only with no other
    /// index, so the hot path is one B-tree append; PostgreSQL adds an identity `id` for the order exports and
    /// pruning walk, where SQLite has its `rowid`.
    package var createEvents: String {
        let id = self == .postgres ? "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, " : ""
        return "CREATE TABLE events (\(id)\(EventColumns.created.map(definition).joined(separator: ", ")))"
    }
}
