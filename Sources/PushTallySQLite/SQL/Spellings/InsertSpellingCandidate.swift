import PushTallyCore

extension Queries {
    /// Adds one NFC name to the spelling migration's scratch table of names looked for.
    struct InsertSpellingCandidate: StoreQuery {
        let name: String

        func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO spelling_candidates (name) VALUES (?)"
        }

        var values: [QueryValue] { [.text(name)] }
    }
}
