import PushTallyCore

extension Queries {
    /// Closes the cursor `cursor` before the transaction goes on, giving back what it held.
    struct CloseCursor: StoreQuery {
        let cursor: String

        func sql(_ dialect: SQLDialect) -> String { "CLOSE \(cursor)" }

        var values: [QueryValue] { [] }
    }
}
