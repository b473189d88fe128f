import GRDB
import PushTallyCore

extension SQLiteStore {
    /// The audience report's counts, from the audience rollup (never raw events).
    public func audienceCounts(_ query: AudienceQuery) async throws -> [AudienceCount] {
        let sql = SQLDialect.sqlite.audienceQuery(query) { _ in "?" }
        return try await read { db in
            var arguments = StatementArguments()
            for bound in query.bounds { arguments += [bound] }
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                let group: AudienceCount.Group?
                switch query.grouping {
                case .day: group = .day(row[0])
                case .app, .appVersion: group = .text(row[0])
                case nil: group = nil
                }
                let counts = (2..<(3 + NotificationPermission.allCases.count)).map { row[$0] as Int64 }
                return AudienceCount(group: group, counts: counts)
            }
        }
    }
}
