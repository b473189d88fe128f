import PushTallyCore

extension Queries {
    /// A push's `sent_at` (no row when it is not registered), asked once per push per commit by the counter
    /// (``SentAtLookup``), through a statement prepared once per commit.
    enum SelectSentAtByPush {
        static let sql = "SELECT sent_at FROM pushes WHERE push_id = ?"
    }
}
