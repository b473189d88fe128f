extension Queries {
    /// Registers a push that has no row yet.
    package struct InsertPush: StoreQuery {
        package let push: PushRegistration
        package let now: Int64

        package init(_ push: PushRegistration, now: Int64) { (self.push, self.now) = (push, now) }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO pushes (push_id, campaign, title, sent_at, app, environment, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """
        }

        package var values: [QueryValue] {
            [
                .text(push.pushID), .text(push.campaign), .text(push.title), .integer(push.sentAtMillis), .text(push.app),
                .text(push.environment), .integer(now), .integer(now),
            ]
        }
    }
}
