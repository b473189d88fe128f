/// The media rollups' tables (``RollupTable/media``, ``RollupTable/mediaBucket``, ``RollupTable/mediaVersion``)
/// in both targets, and the statements that fill them from what a database already holds, rendered once for
/// both engines' migrations.
///
/// The fill gives what a rebuild would: the live tables count the stored unique displays that say anything of
/// their media (``MediaOutcomes/counts(_:extensionMillis:)``), on top of their ledger twin. The ledger twins
/// start empty: a pruned display's media was not kept, so it is in no count.
package enum MediaRollupSchema {
    static let tables: [RollupTable] = [.media, .mediaBucket, .mediaVersion]

    /// Creates the tables, then fills the live rollups.
    package static func statements(dialect sql: SQLDialect) -> [String] {
        [RollupTarget.rollups, .ledger].flatMap { target in
            tables.map { sql.createReleased($0, in: target, sharded: sql.shards(target)) }
        } + liveFill
    }

    private static let display = EventKind.display.rawValue

    /// Stored unique displays counted by their media and extension time, added to the ledger twin's rows.
    private static let liveFill: [String] = {
        let (live, ledger) = (RollupTarget.rollups, RollupTarget.ledger)
        let bucket = """
            CASE WHEN event_time >= 0 THEN event_time / \(EventTime.bucketMillis) \
            ELSE (event_time - \(EventTime.bucketMillis - 1)) / \(EventTime.bucketMillis) END
            """
        let unique = "FROM events WHERE kind = \(display) AND NOT duplicate AND (media IS NOT NULL OR extension_ms IS NOT NULL)"
        return [
            fill(live.media, from: ledger.media, key: ["push_id"], histogram: true, events: [{ "SELECT push_id, \($0) \(unique)" }]),
            fill(
                live.mediaBucket, from: ledger.mediaBucket, key: ["push_id", "bucket"], histogram: false,
                events: [{ "SELECT push_id, \(bucket) AS bucket, \($0) \(unique)" }]),
            fill(
                live.mediaVersion, from: ledger.mediaVersion, key: ["push_id", "dimension", "version"], histogram: true,
                events: [
                    { "SELECT push_id, 0 AS dimension, app_version AS version, \($0) \(unique) AND app_version IS NOT NULL" },
                    { "SELECT push_id, 1 AS dimension, os_version AS version, \($0) \(unique) AND os_version IS NOT NULL" },
                ]),
        ]
    }()

    /// `INSERT INTO table` the sums per key of the events' rows (each select made from the counted columns)
    /// and the ledger twin's.
    private static func fill(
        _ table: String, from ledger: String, key: [String], histogram: Bool, events: [(_ columns: String) -> String]
    ) -> String {
        let media: [(String, String)] = [
            ("media_attached", "media = '\(ReceiptMedia.attached.rawValue)'"),
            ("media_failed", "media = '\(ReceiptMedia.failed.rawValue)'"),
            ("media_timed_out", "media = '\(ReceiptMedia.timedOut.rawValue)'"),
            ("media_none", "media = '\(ReceiptMedia.none.rawValue)'"),
            ("media_unknown", "media IS NULL"),
        ]
        let bounds = ExtensionTimeHistogram.upperBoundsMillis
        let times: [(String, String)] = histogram
            ? ExtensionTimeHistogram.columnNames.indices.map { index in
                let test = [index > 0 ? "extension_ms >= \(bounds[index - 1])" : nil, index < bounds.count ? "extension_ms < \(bounds[index])" : nil]
                return (ExtensionTimeHistogram.columnNames[index], test.compactMap { $0 }.joined(separator: " AND "))
            } : []
        let counted = media + times
        let values = counted.map(\.0)
        let columns = counted.map { "CASE WHEN \($1) THEN 1 ELSE 0 END AS \($0)" }.joined(separator: ", ")
        let selects = events.map { $0(columns) }
            + ["SELECT \((key + values).joined(separator: ", ")) FROM \(ledger)"]
        return """
            INSERT INTO \(table) (\((key + values).joined(separator: ", ")))
            SELECT \(key.joined(separator: ", ")), \(values.map { "SUM(\($0))" }.joined(separator: ", "))
            FROM (\(selects.joined(separator: " UNION ALL "))) AS counted GROUP BY \(key.joined(separator: ", "))
            """
    }
}
