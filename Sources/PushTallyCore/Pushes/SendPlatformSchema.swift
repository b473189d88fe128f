/// The platform a send record named (``SendCounts/platform``), kept apart from the records themselves: a row per
/// record (push and batch) that names one. A record without a row is `unknown`'s, so a split by platform moves a
/// record's sends and failures whole to one row and a total is never counted twice.
package enum SendPlatformSchema {
    package static let table = "push_send_platforms"

    /// The migration's statements, as they were released (a released migration keeps its DDL).
    package static func migration(dialect sql: SQLDialect) -> [String] {
        [
            """
            CREATE TABLE push_send_platforms (
                push_id TEXT NOT NULL, batch_id TEXT NOT NULL, platform TEXT NOT NULL,
                PRIMARY KEY (push_id, batch_id))\(sql.withoutRowID)
            """,
        ]
    }
}
