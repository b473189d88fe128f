extension Queries {
    /// Up to `limit` raw events after a cursor in commit order (``EventCursor``), each with its own cursor.
    ///
    /// SQLite's writers take turns and never reuse a row id (``EventCursor``; the store keeps them rising past
    /// deletions), so its order is the rowid's. PostgreSQL's is the storing transaction's id, then the row's,
    /// below the oldest transaction still running: every transaction before it has ended, and every one
    /// after it stores past it, so what a page reads is never joined later by an event ordered before its end.
    package struct SelectFeedEvents: RowQuery {
        package let after: EventCursor
        package let limit: Int

        package init(after: EventCursor, limit: Int) {
            self.after = after
            self.limit = limit
        }

        package func sql(_ dialect: SQLDialect) -> String {
            let columns = EventColumns.names(EventColumns.exported)
            switch dialect {
            case .sqlite:
                // The cursor's transaction (0 on SQLite) only fills its placeholder.
                return """
                    SELECT '0', rowid, \(columns) FROM events WHERE ? IS NOT NULL AND rowid > ? ORDER BY rowid LIMIT \(limit)
                    """
            case .postgres:
                return """
                    SELECT tx::text, id, \(columns) FROM events
                    WHERE (tx, id) > (?::text::xid8, ?) AND tx < pg_snapshot_xmin(pg_current_snapshot())
                    ORDER BY tx, id LIMIT \(limit)
                    """
            }
        }

        package var values: [QueryValue] { [.text(String(after.transaction)), .integer(after.position)] }

        package func row(_ columns: some QueryRow) throws -> (cursor: EventCursor, event: ExportedEvent) {
            let position = try columns.int64(1)
            let cursor = EventCursor(transaction: UInt64(try columns.text(0)) ?? 0, position: position)
            let event = try StoredEvent(row: columns, columns: EventColumns.exported, offset: 2)
            return (cursor, ExportedEvent(event, seq: position))
        }
    }
}
