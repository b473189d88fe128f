import PostgresNIO
import PushTallyCore

extension PostgresStore {
    public func legacySpellings() async throws -> [LegacySpelling] {
        try await query(PostgresQuery(unsafeSQL: SpellingMigration.listLegacySpellings(.postgres))).map { row in
            let (domain, stored, nfc) = try row.decode((String, String, String).self)
            return LegacySpelling(domain: domain, stored: stored, nfc: nfc)
        }
    }
}
