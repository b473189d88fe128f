extension Queries {
    /// Registers a push again: its labels are replaced, its `sent_at` only set when it had none.
    package struct UpdatePush: StoreQuery {
        package let push: PushRegistration
        package let now: Int64

        package init(_ push: PushRegistration, now: Int64) { (self.push, self.now) = (push, now) }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            UPDATE pushes SET campaign = ?, title = ?, sent_at = COALESCE(sent_at, ?), app = ?, environment = ?, updated_at = ?
            WHERE push_id = ?
            """
        }

        package var values: [QueryValue] {
            [
                .text(push.campaign), .text(push.title), .integer(push.sentAtMillis), .text(push.app), .text(push.environment),
                .integer(now), .text(push.pushID),
            ]
        }
    }
}
