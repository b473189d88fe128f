import PushTallyCore

extension Queries {
    /// Adds one rename (a stored spelling and the NFC spelling that replaces it) to the spelling migration's
    /// scratch table, which ``RenameSpellings`` applies.
    struct InsertSpellingRename: StoreQuery {
        let stored: String
        let nfc: String

        func sql(_ dialect: SQLDialect) -> String {
            "INSERT INTO spelling_renames (stored, nfc) VALUES (?, ?)"
        }

        var values: [QueryValue] { [.text(stored), .text(nfc)] }
    }
}
