/// What attribution adds to the schema, in each engine's dialect: the columns sessions and conversions need
/// on `events`, the index that finds a device's events, and the outcome rollups with their ledger twins.
package enum AttributionSchema {
    package static func statements(dialect: SQLDialect) -> [String] {
        // attribution: 0 unattributed, 1 direct, 2 influenced (Attribution.code); set on sessions and conversions only.
        let columns: [EventColumn] = [.app, .name, .valueMicros, .currency, .attribution, .attributedPush]
        var statements = columns.map(dialect.addEventColumn)
        // Attribution reads one device's events by time; events without a device never take part.
        statements.append(
            "CREATE INDEX events_by_device ON events (device_id, event_time) WHERE device_id IS NOT NULL")
        for target in [RollupTarget.rollups, .ledger] {
            // Unsharded as first created on both engines; PostgreSQL shards the live ones by a later migration,
            // and both add `value_units` later (``valueUnitsAddition(dialect:)``).
            statements.append(dialect.createReleased(.outcome, in: target, sharded: false))
            statements.append(dialect.createReleased(.outcomeTime, in: target, sharded: false))
        }
        return statements
    }

    /// Conversion values as two parts (``MoneyTotal``): `value_units` beside `value_micros` in every outcome
    /// table. A row's whole value moves to its units and millionths (both truncated towards zero, which reads the
    /// same), so every row's `value_micros` stays small however much is added to it from then on.
    package static func valueUnitsAddition(dialect: SQLDialect) -> [String] {
        [RollupTarget.rollups, .ledger].flatMap { target in
            [target.outcome, target.outcomeTime].flatMap { table in
                [
                    "ALTER TABLE \(table) ADD COLUMN value_units \(dialect.type(.integer)) NOT NULL DEFAULT 0",
                    "UPDATE \(table) SET value_units = value_micros / 1000000, value_micros = value_micros % 1000000 WHERE value_micros <> 0",
                ]
            }
        }
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
