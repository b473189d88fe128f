import PushTallyCore

extension Queries {
    /// The scratch table's NFC names that a column already holds (``SpellingMigration/present(_:)``): a
    /// spelling whose NFC form is stored cannot be renamed onto it.
    struct SelectStoredCandidates: RowQuery {
        let column: StoredNameColumn

        func sql(_ dialect: SQLDialect) -> String {
            SpellingMigration.present(column)
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
