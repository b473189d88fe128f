import PushTallyCore

extension Queries {
    /// Notes a commit's new events of one webhook type for the dispatcher: how many, the labels noted, when,
    /// and the commit's range of event rows (their JSON is built when packing). Bound per type in the commit.
    enum InsertOutboxNote {
        static let sql = """
            INSERT INTO webhook_outbox (type, count, items, created_at, first_event, last_event) VALUES (?, ?, ?, ?, ?, ?)
            """
    }
}
