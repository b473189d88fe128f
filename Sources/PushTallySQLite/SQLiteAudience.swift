import GRDB
import PushTallyCore

/// Writes a commit's audience rows (``CommitPlan/audience``) with the shared upsert, in the caller's
/// transaction.
enum SQLiteAudience {
    private static let upsert = SQLDialect.sqlite.audienceUpsert.singleRow

    static func write(_ rows: [AudienceRow], in db: Database) throws {
        guard !rows.isEmpty else { return }
        let statement = try BoundStatement(db, sql: upsert)
        for row in rows {
            statement.bind(1, row.key.bucket)
            statement.bind(2, row.key.deviceID)
            statement.bind(3, row.key.app)
            statement.bind(4, row.key.appVersion)
            statement.bind(5, row.known)
            statement.bind(6, row.sessionTime)
            statement.bind(7, row.storedPermission)
            try statement.execute()
        }
    }
}
