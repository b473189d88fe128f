extension Queries {
    /// One send record's counts as stored (targeted, sent and its failures), for adding to; no rows when the push
    /// has no such record.
    package struct SelectSendRecord: RowQuery {
        package let pushID: String
        package let batchID: String

        package init(pushID: String, batchID: String) { (self.pushID, self.batchID) = (pushID, batchID) }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT s.targeted, s.sent, f.reason, f.count FROM push_sends s
            LEFT JOIN push_failures f ON f.push_id = s.push_id AND f.batch_id = s.batch_id
            WHERE s.push_id = ? AND s.batch_id = ?
            """
        }

        package var values: [QueryValue] { [.text(pushID), .text(batchID)] }

        package func row(_ columns: some QueryRow) throws -> (targeted: Int64, sent: Int64, reason: String?, count: Int64?) {
            (try columns.int64(0), try columns.int64(1), try columns.optionalText(2), try columns.optionalInt64(3))
        }

        /// The record's counts from its rows (one per failure reason), on `platform`.
        package static func counts(_ rows: [(targeted: Int64, sent: Int64, reason: String?, count: Int64?)], platform: String) -> SendCounts {
            var counts = SendCounts(targeted: rows.first?.targeted ?? 0, sent: rows.first?.sent ?? 0, platform: platform)
            for row in rows { if let reason = row.reason, let count = row.count { counts.failed[reason] = count } }
            return counts
        }
    }
}
