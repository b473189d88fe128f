/// The audience rollup, `rollup_audience`: per 15-minute bucket, keyed device, app and app version with a
/// session, the latest notification setting reported there (``AudienceRow``). The audience report reads it,
/// never raw events, so it stays right after retention prunes them.
///
/// It is not a sum, so it has no ledger twin: pruning leaves it whole (one row per device and quarter hour
/// with a session, a fraction of the raw events), and forgetting a device deletes its rows, the only place
/// besides raw events that names a device.
package enum AudienceTable {
    package static let name = "rollup_audience"
    /// Bucket first: the report reads a range of buckets, and ingest appends at the newest one.
    package static let key = ["bucket", "device_id", "app", "app_version"]
    package static let values = ["known", "session_time", "permission"]
    /// What a row is ranked by when two share a key, greatest kept (``AudienceRow/ranksBelow(_:)``).
    package static let rank = ["known", "session_time", "permission"]
    package static var columns: [String] { key + values }
}

extension SQLDialect {
    package var createAudience: String {
        """
        CREATE TABLE \(AudienceTable.name) (
            bucket \(integer) NOT NULL, device_id TEXT NOT NULL, app TEXT NOT NULL, app_version TEXT NOT NULL,
            known \(integer) NOT NULL, session_time \(integer) NOT NULL, permission TEXT NOT NULL,
            PRIMARY KEY (bucket, device_id, app, app_version))\(withoutRowID)
        """
    }

    /// `(known, session_time, permission)` of the row named by `prefix` (`excluded.`, or the stored row).
    private func audienceRank(_ prefix: String) -> String {
        "(" + AudienceTable.rank.map { prefix + $0 }.joined(separator: ", ") + ")"
    }

    /// The upsert of audience rows: a stored row gives way only to one that ranks above it, every column
    /// at once, so the result is the greatest row whatever the order rows arrive in.
    package var audienceUpsert: RollupUpsert {
        let stored = storedRow
        let wins = "\(audienceRank("excluded.")) > \(audienceRank(stored))"
        let updates = AudienceTable.values.map { column in
            "\(column) = CASE WHEN \(wins) THEN excluded.\(column) ELSE \(stored)\(column) END"
        }
        return RollupUpsert(
            head: "INSERT INTO \(AudienceTable.name)\(tableAlias) (\(AudienceTable.columns.joined(separator: ", ")))",
            conflict: "ON CONFLICT (\(AudienceTable.key.joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))",
            columnCount: AudienceTable.columns.count)
    }

    /// Fills the new table from the raw sessions still stored: each key's greatest row, as ingest keeps it.
    package var audienceBackfill: String {
        // Floored, as ``EventTime/bucket(ofMillis:)`` floors (both engines' integer division truncates).
        let width = EventTime.bucketMillis
        let bucket = "CASE WHEN event_time >= 0 THEN event_time / \(width) ELSE (event_time - \(width - 1)) / \(width) END"
        return """
            INSERT INTO \(AudienceTable.name) (\(AudienceTable.columns.joined(separator: ", ")))
            SELECT bucket, device_id, app, app_version, known, session_time, permission FROM (
                SELECT bucket, device_id, app, app_version, known, session_time, permission,
                    ROW_NUMBER() OVER (
                        PARTITION BY bucket, device_id, app, app_version
                        ORDER BY known DESC, session_time DESC, permission DESC) AS position
                FROM (
                    SELECT \(bucket) AS bucket, device_id, COALESCE(app, '') AS app,
                        COALESCE(app_version, '') AS app_version,
                        CASE WHEN notification_permission IS NULL THEN 0 ELSE 1 END AS known,
                        event_time AS session_time, COALESCE(notification_permission, '') AS permission
                    FROM events
                    WHERE kind = \(EventKind.session.rawValue) AND NOT duplicate AND device_id IS NOT NULL) sessions
            ) ranked
            WHERE position = 1
            """
    }

    /// The statements that add the table to a database that has raw events already.
    package var audienceMigration: [String] { [createAudience, audienceBackfill] }

    /// Deletes one device's rows (forgetting a device).
    package func forgetAudience(placeholder: String) -> String {
        "DELETE FROM \(AudienceTable.name) WHERE device_id = \(placeholder)"
    }
}
