import PushTallyCore

extension Queries {
    /// Records the spellings kept as stored (their NFC form already taken), each with its domain and NFC form (the
    /// lists zipped by position).
    struct InsertLegacySpellings: StoreQuery {
        let domains: [String]
        let stored: [String]
        let nfc: [String]

        func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO legacy_spellings (domain, stored, nfc)
            SELECT * FROM unnest(?::text[], ?::text[], ?::text[])
            """
        }

        var values: [QueryValue] { [.texts(domains), .texts(stored), .texts(nfc)] }
    }
}
