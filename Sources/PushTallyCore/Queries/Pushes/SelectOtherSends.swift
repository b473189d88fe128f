extension Queries {
    /// A push's send totals in every record but one batch's: targeted, sent and failed (one row).
    package struct SelectOtherSends: RowQuery {
        package let pushID: String
        package let batchID: String

        package init(pushID: String, batchID: String) { (self.pushID, self.batchID) = (pushID, batchID) }

        /// `CAST` keeps PostgreSQL's sums 64-bit integers (it sums `BIGINT` into `NUMERIC`).
        package func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT (SELECT CAST(COALESCE(SUM(targeted), 0) AS BIGINT) FROM push_sends WHERE push_id = ? AND batch_id <> ?),
                   (SELECT CAST(COALESCE(SUM(sent), 0) AS BIGINT) FROM push_sends WHERE push_id = ? AND batch_id <> ?),
                   (SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) FROM push_failures WHERE push_id = ? AND batch_id <> ?)
            """
        }

        package var values: [QueryValue] { Array(repeating: [.text(pushID), .text(batchID)], count: 3).flatMap { $0 } }

        package func row(_ columns: some QueryRow) throws -> SendCounts {
            SendCounts(targeted: try columns.int64(0), sent: try columns.int64(1), failed: ["": try columns.int64(2)])
        }
    }
}
