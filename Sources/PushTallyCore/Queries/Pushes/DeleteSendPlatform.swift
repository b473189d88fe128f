extension Queries {
    /// Clears the platform of one send record.
    package struct DeleteSendPlatform: StoreQuery {
        package let pushID: String
        package let batchID: String

        package init(pushID: String, batchID: String) { (self.pushID, self.batchID) = (pushID, batchID) }

        package func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM \(SendPlatformSchema.table) WHERE push_id = ? AND batch_id = ?"
        }

        package var values: [QueryValue] { [.text(pushID), .text(batchID)] }
    }
}
