/// Events after a cursor in commit order, each carrying its id, type and cursor (``ExportedEvent``).
public struct EventFeedPage: Sendable, Hashable {
    public var events: [ExportedEvent]
    /// Where a reader goes on from: the last event's cursor, or the one it asked after when none came.
    public var cursor: EventCursor

    public init(events: [ExportedEvent], cursor: EventCursor) {
        self.events = events
        self.cursor = cursor
    }

    /// A page from each feed table's first `limit` rows after `after` in commit order (raw events, send records,
    /// FCM deliveries): their first `limit` in one order, as database `source` names them.
    package init(tables: [[(cursor: EventCursor, event: ExportedEvent)]], after: EventCursor, limit: Int, source: String) {
        let rows = tables.joined().sorted { $0.cursor < $1.cursor }.prefix(limit)
        events = rows.map { row in
            var event = row.event
            event.identify(source: source)
            event.cursor = row.cursor.text
            return event
        }
        cursor = rows.last?.cursor ?? after
    }

    /// The largest page a caller may ask for, and the size of a page when it does not say.
    public static let maximumLimit = 10_000
    public static let defaultLimit = 1000
}
