extension Queries {
    /// Sets the platform of one send record (``DeleteSendPlatform`` clears it).
    package struct UpsertSendPlatform: StoreQuery {
        package let pushID: String
        package let batchID: String
        package let platform: String

        package init(pushID: String, batchID: String, platform: String) {
            (self.pushID, self.batchID, self.platform) = (pushID, batchID, platform)
        }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO \(SendPlatformSchema.table) (push_id, batch_id, platform) VALUES (?, ?, ?)
            ON CONFLICT (push_id, batch_id) DO UPDATE SET platform = excluded.platform
            """
        }

        package var values: [QueryValue] { [.text(pushID), .text(batchID), .text(platform)] }
    }
}
