import PushTallyCore

extension Queries {
    /// The spellings the migration kept (``SpellingMigration/listLegacySpellings(_:)``), in a stable order.
    struct SelectLegacySpellings: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            SpellingMigration.listLegacySpellings(dialect)
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> LegacySpelling {
            LegacySpelling(domain: try columns.text(0), stored: try columns.text(1), nfc: try columns.text(2))
        }
    }
}
