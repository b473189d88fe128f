import PushTallyCore

extension Queries {
    /// Fills the scratch table of NFC spellings whose stored presence the migration checks.
    struct InsertSpellingCandidates: StoreQuery {
        let names: [String]

        func sql(_ dialect: SQLDialect) -> String { "INSERT INTO spelling_candidates (name) SELECT unnest(?::text[])" }

        var values: [QueryValue] { [.texts(names)] }
    }
}
