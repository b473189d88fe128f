/// The shape the feed's tables besides raw events are read in: the storing transaction (PostgreSQL; `'0'` on
/// SQLite) and the position first, then the table's columns.
enum FeedTableRead {
    static func sql(table: String, columns: String, limit: Int, _ dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite:
            """
            SELECT '0', id, \(columns) FROM \(table) WHERE ? IS NOT NULL AND id > ? AND ? IS NOT NULL
            ORDER BY id LIMIT \(limit)
            """
        case .postgres:
            """
            SELECT tx::text, id, \(columns) FROM \(table)
            WHERE (tx, id) > (?::text::xid8, ?) AND tx < ?::text::xid8
            ORDER BY tx, id LIMIT \(limit)
            """
        }
    }

    static func values(after: EventCursor, bound: String) -> [QueryValue] {
        [.text(String(after.transaction)), .integer(after.position), .text(bound)]
    }

    static func cursor(_ columns: some QueryRow) throws -> (EventCursor, Int64) {
        let position = try columns.int64(1)
        return (EventCursor(transaction: UInt64(try columns.text(0)) ?? 0, position: position), position)
    }
}
