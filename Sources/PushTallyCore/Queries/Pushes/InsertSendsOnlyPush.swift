extension Queries {
    /// Registers a push named only by a sender's counts, with the campaign the sender gave.
    package struct InsertSendsOnlyPush: StoreQuery {
        package let pushID: String
        package let campaign: String
        package let now: Int64

        package init(pushID: String, campaign: String, now: Int64) { (self.pushID, self.campaign, self.now) = (pushID, campaign, now) }

        package func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO pushes (push_id, campaign, created_at, updated_at) VALUES (?, ?, ?, ?)"
        }

        package var values: [QueryValue] { [.text(pushID), .text(campaign), .integer(now), .integer(now)] }
    }
}
