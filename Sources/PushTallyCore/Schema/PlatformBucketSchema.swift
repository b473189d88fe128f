/// The per-bucket platform rollup (``RollupTable/platformBucket``) in both targets, and the statements that
/// fill it from what a database already holds, rendered once for both engines' migrations.
///
/// The live table is filled from the raw events still stored that named a platform, as ingest counts them
/// (custom actions folded as ``NameFold`` folds them, in the 15-minute bucket of their event time). The
/// ledger twin starts empty: the bucket ledger's counts name no platform, so they are the `unknown` rest a
/// report derives (the bucket rollup minus the named rows), as receipt health by platform derives it.
package enum PlatformBucketSchema {
    /// Creates the tables, then fills the live one.
    package static func statements(dialect sql: SQLDialect) -> [String] {
        [RollupTarget.rollups, .ledger].map { sql.createReleased(.platformBucket, in: $0, sharded: sql.shards($0)) } + [fill]
    }

    private static let fill: String = {
        let width = EventTime.bucketMillis
        let bucket = """
            , CASE WHEN e.event_time >= 0 THEN e.event_time / \(width) \
            ELSE (e.event_time - \(width - 1)) / \(width) END AS bucket
            """
        return """
            INSERT INTO \(RollupTarget.rollups.platformBucket) (push_id, bucket, platform, kind, action, total, duplicates)
            SELECT push_id, bucket, platform, kind, action, COUNT(*), SUM(duplicated) FROM (
                \(SQLDialect.platformEvents(bucket))
            ) f GROUP BY push_id, bucket, platform, kind, action
            """
    }()
}
