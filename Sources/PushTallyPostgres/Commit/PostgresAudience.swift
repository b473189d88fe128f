import PostgresNIO
import PushTallyCore

/// A commit's audience rows (``CommitPlan/audience``) as one multi-row upsert, rows in key order (the order
/// every writer locks them in). Unsharded: a row belongs to one device, whose sessions a commit writes under
/// that device's lock, and the upsert keeps the greatest row whatever the order collectors commit in.
enum PostgresAudience {
    private static let upsert = SQLDialect.postgres.audienceUpsert

    static func part(_ rows: [AudienceRow]) -> ValuesPart {
        ValuesPart(rows, upsert: upsert) { row, sql in
            [
                sql.bind(row.key.bucket), sql.bind(row.key.deviceID), sql.bind(row.key.app), sql.bind(row.key.appVersion),
                sql.bind(row.known), sql.bind(row.sessionTime), sql.bind(row.storedPermission),
            ]
        }
    }
}
