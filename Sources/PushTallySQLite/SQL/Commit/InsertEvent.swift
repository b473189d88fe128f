import PushTallyCore

extension Queries {
    /// Stores one raw event row, with the shared column lists (``SQLDialect/eventInsert(_:)``) rendered once in
    /// SQLite's placeholders. The writer prepares each text once per commit and binds it per event.
    enum InsertEvent {
        /// A receipt or action: the columns a push's own events carry.
        static let receiptSQL = SQLDialect.eventInsert(EventColumns.receipt)
            + " VALUES \(SQLDialect.questionMarks(EventColumns.receipt.count))"
        /// Every column: sessions, conversions and imported events.
        static let outcomeSQL = SQLDialect.eventInsert(EventColumns.all)
            + " VALUES \(SQLDialect.questionMarks(EventColumns.all.count))"
    }
}
