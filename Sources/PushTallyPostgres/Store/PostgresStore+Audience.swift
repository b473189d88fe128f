import PostgresNIO
import PushTallyCore

extension PostgresStore {
    /// The audience report's counts, from the audience rollup (never raw events).
    public func audienceCounts(_ query: AudienceQuery) async throws -> [AudienceCount] {
        try await fetch(Queries.SelectAudienceCounts(query))
    }
}
