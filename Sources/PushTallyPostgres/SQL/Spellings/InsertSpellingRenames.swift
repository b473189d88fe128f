import PushTallyCore

extension Queries {
    /// Fills the scratch table of renames, each stored spelling with its NFC one (the lists zipped by position).
    struct InsertSpellingRenames: StoreQuery {
        let stored: [String]
        let nfc: [String]

        func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO spelling_renames (stored, nfc) SELECT * FROM unnest(?::text[], ?::text[])"
        }

        var values: [QueryValue] { [.texts(stored), .texts(nfc)] }
    }
}
