import PushTallyCore

extension Queries {
    /// The next `rows` rows of the open cursor `cursor`; none once it is spent.
    struct FetchFromCursor: StoreQuery {
        let cursor: String
        let rows: Int

        func sql(_ dialect: SQLDialect) -> String { "FETCH \(rows) FROM \(cursor)" }

        var values: [QueryValue] { [] }
    }
}
