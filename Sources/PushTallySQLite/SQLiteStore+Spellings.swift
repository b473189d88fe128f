import GRDB
import PushTallyCore

extension SQLiteStore {
    public func legacySpellings() async throws -> [LegacySpelling] {
        try await read { db in try db.fetch(Queries.SelectLegacySpellings()) }
    }
}
