extension Queries {
    /// A device's timeline: its events after a cursor, by `events_by_device` (device_id, event_time), each with
    /// its push's campaign, `sent_at` and app (its own push, or the one credited for a session or conversion).
    /// The row id breaks ties, so a cursor never skips or repeats an event of the same millisecond.
    package struct SelectDeviceTimeline: RowQuery {
        /// The raw-event columns an entry is read from, by their declarations: every one but the device's id,
        /// which is the one asked for and stored keyed. A column added to ``EventColumn`` is read here by itself.
        package static let eventColumns = EventColumns.all.filter { $0 != .deviceID }

        /// The device id as stored (keyed).
        package let keyedDevice: String
        package let cursor: TimelineCursor
        /// Rows read: one more than a page, to tell whether another follows.
        package let rows: Int

        package init(keyedDevice: String, after cursor: TimelineCursor, rows: Int) {
            self.keyedDevice = keyedDevice
            self.cursor = cursor
            self.rows = rows
        }

        package func sql(_ dialect: SQLDialect) -> String {
            let row = dialect == .sqlite ? "e.rowid" : "e.id"
            return """
                SELECT \(row), \(Self.eventColumns.map { "e.\($0.name)" }.joined(separator: ", ")), p.campaign, p.sent_at, p.app
                FROM events e
                LEFT JOIN pushes p ON p.push_id = CASE WHEN e.kind <= \(EventKind.action.rawValue) THEN e.push_id ELSE e.attributed_push END
                WHERE e.device_id = ? AND (e.event_time > ? OR (e.event_time = ? AND \(row) > ?))
                ORDER BY e.event_time, \(row)
                LIMIT ?
                """
        }

        package var values: [QueryValue] {
            [.text(keyedDevice), .integer(cursor.eventTimeMillis), .integer(cursor.eventTimeMillis), .integer(cursor.row), .integer(Int64(rows))]
        }

        package func row(_ columns: some QueryRow) throws -> TimelineEntry {
            let event = try StoredEvent(row: columns, columns: Self.eventColumns, offset: 1)
            let push = 1 + Self.eventColumns.count
            return TimelineEntry(
                row: try columns.int64(0), event: event, campaign: try columns.optionalText(push), sentAt: try columns.optionalInt64(push + 1),
                pushApp: try columns.optionalText(push + 2))
        }
    }
}
