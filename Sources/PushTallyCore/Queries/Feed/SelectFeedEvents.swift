extension Queries {
    /// Up to `limit` raw events after a cursor in commit order (``EventCursor``), each with its own cursor.
    ///
    /// SQLite's writers take turns and never reuse a row id (``EventCursor``; the store keeps them rising past
    /// deletions), so its order is the rowid's. PostgreSQL's is the storing transaction's id, then the row's,
    /// below `bound` (``SelectFeedBound``): every transaction before it has ended, and every one after it stores
    /// past it, so what a page reads is never joined later by an event ordered before its end.
    package struct SelectFeedEvents: RowQuery {
        package let after: EventCursor
        package let limit: Int
        package let bound: String

        package init(after: EventCursor, limit: Int, bound: String) {
            self.after = after
            self.limit = limit
            self.bound = bound
        }

        package func sql(_ dialect: SQLDialect) -> String {
            let columns = EventColumns.names(EventColumns.exported)
            switch dialect {
            case .sqlite:
                // The cursor's transaction (0 on SQLite) and the bound only fill their placeholders.
                return """
                    SELECT '0', rowid, \(columns) FROM events WHERE ? IS NOT NULL AND rowid > ? AND ? IS NOT NULL
                    ORDER BY rowid LIMIT \(limit)
                    """
            case .postgres:
                return """
                    SELECT tx::text, id, \(columns) FROM events
                    WHERE (tx, id) > (?::text::xid8, ?) AND tx < ?::text::xid8
                    ORDER BY tx, id LIMIT \(limit)
                    """
            }
        }

        package var values: [QueryValue] { FeedTableRead.values(after: after, bound: bound) }

        package func row(_ columns: some QueryRow) throws -> (cursor: EventCursor, event: ExportedEvent) {
            let (cursor, position) = try FeedTableRead.cursor(columns)
            let event = try StoredEvent(row: columns, columns: EventColumns.exported, offset: 2)
            return (cursor, ExportedEvent(event, seq: position))
        }
    }
}
