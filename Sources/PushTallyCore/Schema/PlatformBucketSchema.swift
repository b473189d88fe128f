/// The per-bucket platform rollup (``RollupTable/platformBucket``) in both targets, and the statements that
/// fill it from what a database already holds, rendered once for both engines' migrations.
///
/// The live table is filled from the raw events still stored that named a platform, as ingest counts them
/// (custom actions folded as ``ActionFold`` folds them, in the 15-minute bucket of their event time). The
/// ledger twin starts empty: the bucket ledger's counts name no platform, so they are the `unknown` rest a
/// report derives (the bucket rollup minus the named rows), as receipt health by platform derives it.
package enum PlatformBucketSchema {
    /// Creates the tables, then fills the live one.
    package static func statements(dialect sql: SQLDialect) -> [String] {
        [RollupTarget.rollups, .ledger].map { sql.create(.platformBucket, in: $0, sharded: sql.shards($0)) } + [fill]
    }

    private static let fill: String = {
        let custom = [StandardAction.open, StandardAction.dismiss, ActionIDs.overflow].map { "'\($0)'" }.joined(separator: ", ")
        let (display, action) = (EventKind.display.rawValue, EventKind.action.rawValue)
        let width = EventTime.bucketMillis
        return """
            INSERT INTO \(RollupTarget.rollups.platformBucket) (push_id, bucket, platform, kind, action, total, duplicates)
            SELECT push_id, bucket, platform, kind, action, COUNT(*), SUM(duplicated) FROM (
                SELECT e.push_id, e.platform, e.kind,
                    CASE WHEN e.event_time >= 0 THEN e.event_time / \(width)
                    ELSE (e.event_time - \(width - 1)) / \(width) END AS bucket,
                    CASE WHEN e.kind = \(action) AND e.action NOT IN (\(custom)) AND NOT EXISTS (
                        SELECT 1 FROM action_ids a WHERE a.app = COALESCE(p.app, '') AND a.action = e.action)
                    THEN '\(ActionIDs.overflow)' ELSE e.action END AS action,
                    CASE WHEN e.duplicate THEN 1 ELSE 0 END AS duplicated
                FROM events e LEFT JOIN pushes p ON p.push_id = e.push_id
                WHERE e.platform IS NOT NULL AND e.kind IN (\(display), \(action))
            ) f GROUP BY push_id, bucket, platform, kind, action
            """
    }()
}
