extension Queries {
    /// Deletes one send record's failures by reason (``InsertPushFailures`` stores the new ones).
    package struct DeletePushFailures: StoreQuery {
        package let pushID: String
        package let batchID: String

        package init(pushID: String, batchID: String) { (self.pushID, self.batchID) = (pushID, batchID) }

        package func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM push_failures WHERE push_id = ? AND batch_id = ?"
        }

        package var values: [QueryValue] { [.text(pushID), .text(batchID)] }
    }
}
