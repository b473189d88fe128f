/// The statement both engines read a device's timeline with, in each one's dialect, and how its rows become
/// entries: the row id, then ``eventColumns`` read by their declarations, then the push's campaign, `sent_at`
/// and app.
package enum TimelineQuery {
    /// The raw-event columns an entry shows.
    package static let eventColumns: [EventColumn] = [
        .kind, .pushID, .action, .eventTime, .receivedAt, .duplicate, .receiptID, .app, .appVersion, .osVersion, .name,
        .valueMicros, .currency, .attribution, .attributedPush, .media, .extensionMillis, .notificationPermission,
    ]

    /// Binds, in order: the keyed device id, the cursor's time (twice on SQLite), its row id, the row limit.
    package static func sql(dialect: SQLDialect) -> String {
        let row = dialect == .sqlite ? "e.rowid" : "e.id"
        let placeholders = dialect == .sqlite ? ["?", "?", "?", "?", "?"] : ["$1", "$2", "$2", "$3", "$4"]
        // The device's events by `events_by_device` (device_id, event_time); the row id breaks ties, so a
        // cursor never skips or repeats an event of the same millisecond.
        return """
            SELECT \(row), \(eventColumns.map { "e.\($0.name)" }.joined(separator: ", ")), p.campaign, p.sent_at, p.app
            FROM events e
            LEFT JOIN pushes p ON p.push_id = CASE WHEN e.kind <= \(EventKind.action.rawValue) THEN e.push_id ELSE e.attributed_push END
            WHERE e.device_id = \(placeholders[0])
                AND (e.event_time > \(placeholders[1]) OR (e.event_time = \(placeholders[2]) AND \(row) > \(placeholders[3])))
            ORDER BY e.event_time, \(row)
            LIMIT \(placeholders[4])
            """
    }

    /// The entry one row of ``sql(dialect:)`` holds.
    package static func entry(_ row: some QueryRow) throws -> TimelineEntry {
        let event = try StoredEvent(row: row, columns: eventColumns, offset: 1)
        let push = 1 + eventColumns.count
        return TimelineEntry(
            row: try row.int64(0), event: event, campaign: try row.optionalText(push), sentAt: try row.optionalInt64(push + 1),
            pushApp: try row.optionalText(push + 2))
    }
}

extension TimelineEntry {
    /// The entry of `event`, stored as row `row`, whose push (its own, or the one credited for a session or
    /// conversion) is of `campaign`, sent at `sentAt` by `pushApp`.
    package init(row: Int64, event: StoredEvent, campaign: String?, sentAt: Int64?, pushApp: String?) {
        let kind = event.kind
        self.init(row: row, kind: kind, eventTimeMillis: event.eventTime, receivedAtMillis: event.receivedAt, duplicate: event.duplicate ?? false)
        if kind.namesPush, !event.pushID.isEmpty { self.pushID = event.pushID }
        if kind == .action { self.action = event.action }
        self.campaign = campaign
        self.app = event.app ?? pushApp
        self.appVersion = event.appVersion
        self.osVersion = event.osVersion
        self.sentAtMillis = sentAt
        if !kind.namesPush { self.clientID = event.receiptID }
        self.name = event.name
        self.valueMicros = event.valueMicros
        self.currency = event.currency
        self.attribution = kind.namesPush ? nil : event.attribution
        self.media = event.media
        self.extensionMillis = event.extensionMillis
        self.notificationPermission = event.notificationPermission
    }
}
