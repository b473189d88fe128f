import PushTallyCore

extension Queries {
    /// Writes a consistent copy of the database to a new file (`VACUUM INTO`), outside any transaction.
    struct BackUpDatabase: StoreQuery {
        let path: String

        func sql(_ dialect: SQLDialect) -> String {
            "VACUUM INTO ?"
        }

        var values: [QueryValue] { [.text(path)] }
    }
}
