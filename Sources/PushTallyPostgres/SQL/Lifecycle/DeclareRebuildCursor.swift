import PushTallyCore

extension Queries {
    /// Opens the cursor `rebuild` over every raw event's counted columns in id order, for a rebuild to count them
    /// in chunks (``FetchFromCursor``).
    struct DeclareRebuildCursor: StoreQuery {
        func sql(_ dialect: SQLDialect) -> String {
            """
            DECLARE rebuild NO SCROLL CURSOR FOR
            SELECT \(StoredEvent.countedColumns) FROM events ORDER BY id
            """
        }

        var values: [QueryValue] { [] }
    }
}
