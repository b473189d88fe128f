/// What attribution adds to the schema, in each engine's dialect: the columns sessions and conversions need
/// on `events`, the index that finds a device's events, and the outcome rollups with their ledger twins.
package enum AttributionSchema {
    package static func statements(dialect: WebhookSchema.Dialect) -> [String] {
        let integer = dialect == .sqlite ? "INTEGER" : "BIGINT"
        let withoutRowID = dialect == .sqlite ? " WITHOUT ROWID" : ""
        let columns = [
            "app TEXT", "name TEXT", "value_micros \(integer)", "currency TEXT",
            // 0 unattributed, 1 direct, 2 influenced (Attribution.code); set on sessions and conversions only.
            "attribution \(integer)", "attributed_push TEXT",
        ]
        var statements = columns.map { "ALTER TABLE events ADD COLUMN \($0)" }
        // Attribution reads one device's events by time; events without a device never take part.
        statements.append(
            "CREATE INDEX events_by_device ON events (device_id, event_time) WHERE device_id IS NOT NULL")
        for target in [RollupTarget.rollups, .ledger] {
            statements.append("""
                CREATE TABLE \(target.outcome) (
                    push_id TEXT NOT NULL, measure \(integer) NOT NULL, currency TEXT NOT NULL,
                    count \(integer) NOT NULL, value_micros \(integer) NOT NULL,
                    PRIMARY KEY (push_id, measure, currency)
                )\(withoutRowID)
                """)
            statements.append("""
                CREATE TABLE \(target.outcomeTime) (
                    bucket \(integer) NOT NULL, measure \(integer) NOT NULL, currency TEXT NOT NULL,
                    count \(integer) NOT NULL, value_micros \(integer) NOT NULL,
                    PRIMARY KEY (bucket, measure, currency)
                )\(withoutRowID)
                """)
        }
        return statements
    }

    /// The `meta` key holding the latest prune cutoff: sessions and conversions whose windows reach before it
    /// keep their stored attribution (the events that explained them are gone).
    package static let prunedBeforeKey = "pruned_before"
}

/// The 15-minute buckets of outcome totals a `[from, to)` range covers, as the time series reads its buckets.
package struct OutcomeTimeRange: Sendable, Hashable {
    package var firstBucket: Int64
    package var lastBucket: Int64

    package init(fromMillis: Int64?, toMillis: Int64?) {
        firstBucket = fromMillis.map(EventTime.bucket(ofMillis:)) ?? .min
        lastBucket = toMillis.map { EventTime.bucket(ofMillis: $0 - 1) } ?? .max
    }
}
