extension Queries {
    /// The outbox rows to pack next, oldest first. PostgreSQL locks them and skips rows another collector is
    /// packing right now; on SQLite one process packs.
    package struct SelectOutboxRows: RowQuery {
        /// An outbox row as stored. SQLite's rows name the range of event rows their commit stored
        /// (`firstEvent`…`lastEvent`), whose JSON is built when packing; PostgreSQL's hold it in `items`.
        package struct Stored: Sendable, Hashable {
            package var seq: Int64
            package var type: String
            package var count: Int
            package var items: String
            package var firstEvent: Int64?
            package var lastEvent: Int64?
        }

        package let limit: Int

        package init(limit: Int) { self.limit = limit }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT seq, type, count, items, first_event, last_event FROM webhook_outbox ORDER BY seq LIMIT ?\
            \(dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : "")
            """
        }

        package var values: [QueryValue] { [.integer(Int64(limit))] }

        package func row(_ columns: some QueryRow) throws -> Stored {
            Stored(
                seq: try columns.int64(0), type: try columns.text(1), count: Int(try columns.int64(2)), items: try columns.text(3),
                firstEvent: try columns.optionalInt64(4), lastEvent: try columns.optionalInt64(5))
        }
    }
}
