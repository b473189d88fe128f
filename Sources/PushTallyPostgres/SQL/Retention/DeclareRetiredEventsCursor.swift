import PushTallyCore

extension Queries {
    /// Opens the cursor `retired` over the events of `pushIDs` in the retired partition `table`, their counted
    /// columns only, so a batch is read in chunks (``FetchFromCursor``) however many events a push has.
    struct DeclareRetiredEventsCursor: StoreQuery {
        let table: String
        let pushIDs: [String]

        func sql(_ dialect: SQLDialect) -> String {
            """
            DECLARE retired NO SCROLL CURSOR FOR
            SELECT \(StoredEvent.countedColumns) FROM \(table) WHERE push_id = ANY(?)
            """
        }

        var values: [QueryValue] { [.texts(pushIDs)] }
    }
}
