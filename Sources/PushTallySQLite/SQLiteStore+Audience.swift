import GRDB
import PushTallyCore

extension SQLiteStore {
    /// The audience report's counts, from the audience rollup (never raw events).
    public func audienceCounts(_ query: AudienceQuery) async throws -> [AudienceCount] {
        try await read { db in try db.fetch(Queries.SelectAudienceCounts(query)) }
    }
}
