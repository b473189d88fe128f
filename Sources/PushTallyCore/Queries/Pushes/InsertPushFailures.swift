extension Queries {
    /// Stores one send record's failures by reason, in one statement.
    package struct InsertPushFailures: StoreQuery {
        package let pushID: String
        package let batchID: String
        package let rows: [(reason: String, count: Int64)]

        package init(pushID: String, batchID: String, _ rows: [(reason: String, count: Int64)]) {
            (self.pushID, self.batchID, self.rows) = (pushID, batchID, rows)
        }

        package func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO push_failures (push_id, batch_id, reason, count) SELECT ?, ?, c0, c1 FROM \(dialect.zipped([.text, .integer]))"
        }

        package var values: [QueryValue] { [.text(pushID), .text(batchID), .texts(rows.map(\.reason)), .integers(rows.map(\.count))] }
    }
}
