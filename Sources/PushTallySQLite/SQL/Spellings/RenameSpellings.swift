import PushTallyCore

extension Queries {
    /// Renames, in one column, every spelling the scratch table of renames lists
    /// (``SpellingMigration/rename(_:)``).
    struct RenameSpellings: StoreQuery {
        let column: StoredNameColumn

        func sql(_ dialect: SQLDialect) -> String {
            SpellingMigration.rename(column)
        }

        var values: [QueryValue] { [] }
    }
}
