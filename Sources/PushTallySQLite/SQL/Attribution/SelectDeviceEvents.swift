import PushTallyCore

extension Queries {
    /// A device's events as the attribution planner reads them (``event(_:)``), by the `events_by_device`
    /// index. Prepared once per commit or rebuild and bound per device.
    enum SelectDeviceEvents {
        /// The columns read, in ``event(_:)``'s order.
        private static let columns = """
            rowid, kind, push_id, action, event_time, receipt_id, attribution, attributed_push, value_micros, currency
            """

        /// The device's events from a time on (its window's reach back from a commit's earliest new event).
        static let sinceSQL = "SELECT \(columns) FROM events WHERE device_id = ? AND event_time >= ? AND duplicate = 0"

        /// Every event of the device, for a rebuild that re-derives all credits.
        static let allSQL = "SELECT \(columns) FROM events WHERE device_id = ? AND duplicate = 0"

        /// A row of either statement as the planner's event.
        static func event(_ row: BoundStatement.Columns) -> AttributionPlanner.Event {
            AttributionPlanner.Event(
                row: row.int64(0), kind: EventKind(rawValue: Int(row.int64(1))) ?? .display, pushID: row.text(2),
                action: row.text(3), time: row.int64(4), clientID: row.optionalText(5),
                attribution: Attribution(code: row.optionalInt64(6).map { Int($0) }, pushID: row.optionalText(7)),
                valueMicros: row.optionalInt64(8), currency: row.optionalText(9))
        }
    }
}
