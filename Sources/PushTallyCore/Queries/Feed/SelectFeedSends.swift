extension Queries {
    /// Up to `limit` send records after a cursor in commit order, as feed lines of type `send`
    /// (``SelectFeedEvents`` for the order and `bound`).
    package struct SelectFeedSends: RowQuery {
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
                table: FeedTablesSchema.sendRecords,
                columns: "push_id, batch_id, campaign, app, sent_at, targeted, sent, failed, failures, platform, recorded_at",
                limit: limit, dialect)
        }

        package var values: [QueryValue] { FeedTableRead.values(after: after, bound: bound) }

        package func row(_ columns: some QueryRow) throws -> (cursor: EventCursor, event: ExportedEvent) {
            let (cursor, position) = try FeedTableRead.cursor(columns)
            let recordedAt = try columns.int64(12)
            let sentAt = try columns.optionalInt64(6)
            var event = ExportedEvent(
                seq: position, push_id: try columns.text(2), kind: "send", action: nil, received_at: recordedAt,
                event_time: sentAt ?? recordedAt, duplicate: false, device_id: nil, receipt_id: nil,
                platform: try columns.optionalText(11), app_version: nil, os_version: nil)
            event.batch_id = try columns.text(3)
            event.campaign = try columns.text(4)
            event.app = try columns.optionalText(5)
            event.sent_at = sentAt
            event.targeted = try columns.int64(7)
            event.sent = try columns.int64(8)
            event.failed = try columns.int64(9)
            event.failures = try columns.text(10)
            return (cursor, event)
        }
    }
}
