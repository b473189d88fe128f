import PostgresNIO
import PushTallyCore

extension PostgresStore {
    /// The audience report's counts, from the audience rollup (never raw events).
    public func audienceCounts(_ query: AudienceQuery) async throws -> [AudienceCount] {
        var binds = PostgresBindings()
        for bound in query.bounds { binds.append(bound) }
        let sql = SQLDialect.postgres.audienceQuery(query) { "$\($0)" }
        return try await self.query(PostgresQuery(unsafeSQL: sql, binds: binds)).map { row in
            let cells = row.makeRandomAccess()
            let group: AudienceCount.Group?
            switch query.grouping {
            case .day: group = .day(try cells[0].decode(Int64.self))
            case .app, .appVersion: group = .text(try cells[0].decode(String.self))
            case nil: group = nil
            }
            let counts = try (2..<(3 + NotificationPermission.allCases.count)).map { try cells[$0].decode(Int64.self) }
            return AudienceCount(group: group, counts: counts)
        }
    }
}
