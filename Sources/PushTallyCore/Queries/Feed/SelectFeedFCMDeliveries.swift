extension Queries {
    /// Up to `limit` rows of FCM's delivery data after a cursor in commit order, as feed lines of type
    /// `fcm_delivery` (``SelectFeedEvents`` for the order and `bound`).
    package struct SelectFeedFCMDeliveries: RowQuery {
        package let after: EventCursor
        package let limit: Int
        package let bound: String

        package init(after: EventCursor, limit: Int, bound: String) {
            self.after = after
            self.limit = limit
            self.bound = bound
        }

        package func sql(_ dialect: SQLDialect) -> String {
            FeedTableRead.sql(
                table: "fcm_deliveries", columns: "message_id, instance_key, event, push_id, platform, event_time, imported_at",
                limit: limit, dialect)
        }

        package var values: [QueryValue] { FeedTableRead.values(after: after, bound: bound) }

        package func row(_ columns: some QueryRow) throws -> (cursor: EventCursor, event: ExportedEvent) {
            let (cursor, position) = try FeedTableRead.cursor(columns)
            let importedAt = try columns.int64(8)
            let instance = try columns.text(3)
            var event = ExportedEvent(
                seq: position, push_id: try columns.text(5), kind: "fcm_delivery", action: nil, received_at: importedAt,
                event_time: try columns.optionalInt64(7) ?? importedAt, duplicate: false,
                device_id: instance.isEmpty ? nil : instance, receipt_id: nil, platform: try columns.text(6),
                app_version: nil, os_version: nil)
            event.message_id = try columns.text(2)
            event.event = try columns.text(4)
            return (cursor, event)
        }
    }
}
