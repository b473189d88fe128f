/// The statement both engines read a device's timeline with, in each one's dialect. The columns come in
/// ``columnCount`` cells, in ``TimelineEntry``'s order: row, kind, push_id, action, event_time,
/// received_at, duplicate, receipt_id, app, app_version, os_version, name, value_micros, currency,
/// attribution, attributed_push, campaign, sent_at, media, extension_ms, notification_permission.
package enum TimelineQuery {
    package static let columnCount = 21

    /// Binds, in order: the keyed device id, the cursor's time (twice on SQLite), its row id, the row limit.
    package static func sql(dialect: SQLDialect) -> String {
        let row = dialect == .sqlite ? "e.rowid" : "e.id"
        let placeholders = dialect == .sqlite ? ["?", "?", "?", "?", "?"] : ["$1", "$2", "$2", "$3", "$4"]
        // The device's events by `events_by_device` (device_id, event_time); the row id breaks ties, so a
        // cursor never skips or repeats an event of the same millisecond.
        return """
            SELECT \(row), e.kind, e.push_id, e.action, e.event_time, e.received_at, e.duplicate, e.receipt_id,
                COALESCE(e.app, p.app), e.app_version, e.os_version, e.name, e.value_micros, e.currency,
                e.attribution, e.attributed_push, p.campaign, p.sent_at, e.media, e.extension_ms, e.notification_permission
            FROM events e
            LEFT JOIN pushes p ON p.push_id = CASE WHEN e.kind <= \(EventKind.action.rawValue) THEN e.push_id ELSE e.attributed_push END
            WHERE e.device_id = \(placeholders[0])
                AND (e.event_time > \(placeholders[1]) OR (e.event_time = \(placeholders[2]) AND \(row) > \(placeholders[3])))
            ORDER BY e.event_time, \(row)
            LIMIT \(placeholders[4])
            """
    }
}

extension TimelineEntry {
    /// An entry from the statement's cells, decoded by the engine.
    package init(
        row: Int64, kind: Int, pushID: String, action: String, eventTime: Int64, receivedAt: Int64, duplicate: Bool,
        clientID: String?, app: String?, appVersion: String?, osVersion: String?, name: String?, valueMicros: Int64?,
        currency: String?, attribution: Int?, attributedPush: String?, campaign: String?, sentAt: Int64?
    ) {
        let kind = EventKind(rawValue: kind) ?? .display
        self.init(row: row, kind: kind, eventTimeMillis: eventTime, receivedAtMillis: receivedAt, duplicate: duplicate)
        if kind.namesPush, !pushID.isEmpty { self.pushID = pushID }
        if kind == .action { self.action = action }
        self.campaign = campaign
        self.app = app
        self.appVersion = appVersion
        self.osVersion = osVersion
        self.sentAtMillis = sentAt
        if !kind.namesPush { self.clientID = clientID }
        self.name = name
        self.valueMicros = valueMicros
        self.currency = currency
        self.attribution = kind.namesPush ? nil : Attribution(code: attribution, pushID: attributedPush)
    }

    /// Adds the statement's last three cells: a display's media outcome and extension time, a session's
    /// notification setting (values this version does not know are left out).
    package mutating func addReported(media: String?, extensionMillis: Int64?, permission: String?) {
        self.media = media.flatMap(ReceiptMedia.init(rawValue:))
        self.extensionMillis = extensionMillis
        self.notificationPermission = permission.flatMap(NotificationPermission.init(rawValue:))
    }
}
