import GRDB
import PushTallyCore

extension SQLiteStore {
    public func legacySpellings() async throws -> [LegacySpelling] {
        try await read { db in
            try Row.fetchAll(db, sql: SpellingMigration.listLegacySpellings(.sqlite)).map { row in
                LegacySpelling(domain: row[0], stored: row[1], nfc: row[2])
            }
        }
    }
}
