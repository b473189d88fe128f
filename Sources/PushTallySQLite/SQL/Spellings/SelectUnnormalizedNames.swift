import PushTallyCore

extension Queries {
    /// The distinct names a column holds that are not in NFC, compared with the `pushtally_nfc` function
    /// (``SQLiteSpellings/nfcFunction``), which the caller adds to the connection first.
    struct SelectUnnormalizedNames: RowQuery {
        let column: StoredNameColumn

        func sql(_ dialect: SQLDialect) -> String {
            SpellingMigration.scan(column, test: "{} <> pushtally_nfc({})")
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
