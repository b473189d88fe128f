import PushTallyCore

extension Queries {
    /// Keeps a spelling the migration could not rename (its NFC form names another row), for operators to see.
    struct InsertLegacySpelling: StoreQuery {
        let spelling: LegacySpelling

        func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO legacy_spellings (domain, stored, nfc) VALUES (?, ?, ?)"
        }

        var values: [QueryValue] { [.text(spelling.domain), .text(spelling.stored), .text(spelling.nfc)] }
    }
}
