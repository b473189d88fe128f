extension Queries {
    /// Logs one send record as it was just stored, with its push's campaign, app and `sent_at` as they stand
    /// now (``FeedTablesSchema``). `position` is SQLite's (``FeedTablesSchema``); PostgreSQL draws its own.
    package struct InsertSendRecord: StoreQuery {
        package let position: Int64?
        package let pushID: String
        package let batchID: String
        package let counts: SendCounts
        package let recordedAt: Int64

        package init(position: Int64?, pushID: String, batchID: String, _ counts: SendCounts, recordedAt: Int64) {
            (self.position, self.pushID, self.batchID, self.counts, self.recordedAt) = (position, pushID, batchID, counts, recordedAt)
        }

        package func sql(_ dialect: SQLDialect) -> String {
            let position = dialect == .sqlite ? "?" : "COALESCE(?::bigint, \(FeedTablesSchema.nextPostgresPosition))"
            return """
                INSERT INTO send_records (
                    id, push_id, batch_id, campaign, app, sent_at, targeted, sent, failed, failures, platform, recorded_at)
                SELECT \(position), push_id, ?, campaign, app, sent_at, ?, ?, ?, ?, ?, ? FROM pushes WHERE push_id = ?
                """
        }

        package var values: [QueryValue] {
            let failed = counts.failureRows.reduce(0) { $0 + $1.count }
            return [
                .integer(position), .text(batchID), .integer(counts.targeted), .integer(counts.sent), .integer(failed),
                .text(SendRecordText.failures(counts)), .text(counts.platform), .integer(recordedAt), .text(pushID),
            ]
        }
    }
}
