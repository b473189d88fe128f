import PushTallyCore

extension Queries {
    /// Stores raw event rows, with the shared column lists (``SQLDialect/eventInsert(_:)``) rendered in SQLite's
    /// placeholders, many rows a statement (``RawRows``).
    enum InsertEvent {
        /// The row counts a statement is written for, largest first: a run of rows takes the largest that fits,
        /// then the next, so a commit of up to 63 rows takes at most six statements.
        static let rowCounts = [32, 16, 8, 4, 2, 1]

        /// A receipt or action: the columns a push's own events carry, by ``rowCounts``.
        static let receiptSQL = rowCounts.map { sql(EventColumns.receipt, rows: $0) }
        /// Every column: sessions, conversions and imported events, by ``rowCounts``.
        static let outcomeSQL = rowCounts.map { sql(EventColumns.all, rows: $0) }

        private static func sql(_ columns: [EventColumn], rows: Int) -> String {
            let row = SQLDialect.questionMarks(columns.count)
            return SQLDialect.eventInsert(columns) + " VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
        }
    }
}
