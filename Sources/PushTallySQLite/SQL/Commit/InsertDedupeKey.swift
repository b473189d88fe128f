import PushTallyCore

extension Queries {
    /// Stores one dedupe key of a push, leaving a key already stored as it is: a change means the key is new.
    /// Prepared once per commit and bound per key, in key order (``DedupeWriter``).
    enum InsertDedupeKey {
        static let sql = "INSERT INTO dedupe (push_id, key) VALUES (?, ?) ON CONFLICT DO NOTHING"
    }
}
