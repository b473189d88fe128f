import PushTallyCore

extension Queries {
    /// The statements that keep raw events' rowids rising for good (``EventPositions``): the floor a deletion
    /// leaves in `meta`, and the placeholder row that lifts the next insert past it.
    enum EventFloor {
        static let key = "events_floor"
        /// The highest rowid stored, or `NULL` when there is none.
        static let selectHighest = "SELECT max(rowid) FROM events"
        /// The floor, or no row.
        static let select = "SELECT CAST(value AS INTEGER) FROM meta WHERE key = '\(key)'"
        /// Raises the floor to `?`, never lowering it.
        static let raise = """
            INSERT INTO meta (key, value) VALUES ('\(key)', ?)
            ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))
            """
        static let clear = "DELETE FROM meta WHERE key = '\(key)'"
        /// A row at rowid `?` with only the required columns, deleted again before its transaction ends.
        static let insertPlaceholder = """
            INSERT INTO events (rowid, push_id, kind, action, received_at, event_time, duplicate) VALUES (?, '', 0, '', 0, 0, 0)
            """
        static let deletePlaceholder = "DELETE FROM events WHERE rowid = ?"
    }
}
