import GRDB
import PushTallyCore

/// Adds a counter's deltas to SQLite's rollup or ledger tables: one upsert per distinct key, every column
/// additive, never read-modify-write.
enum RollupWriter {
    static func write(_ accumulator: RollupAccumulator, to target: RollupTarget, in db: Database) throws {
        let pushStatement = try db.cachedStatement(sql: """
            INSERT INTO \(target.push) (push_id, kind, action, total, duplicates, first_time, last_time, late)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (push_id, kind, action) DO UPDATE SET
                total = total + excluded.total,
                duplicates = duplicates + excluded.duplicates,
                first_time = min(first_time, excluded.first_time),
                last_time = max(last_time, excluded.last_time),
                late = late + excluded.late
            """)
        for (key, delta) in accumulator.pushes {
            try pushStatement.execute(arguments: [
                key.pushID, key.kind.rawValue, key.action, delta.total, delta.duplicates, delta.firstTime,
                delta.lastTime, delta.late,
            ])
        }
        let bucketStatement = try db.cachedStatement(sql: """
            INSERT INTO \(target.bucket) (push_id, bucket, kind, action, total, duplicates)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (push_id, bucket, kind, action) DO UPDATE SET
                total = total + excluded.total,
                duplicates = duplicates + excluded.duplicates
            """)
        for (key, delta) in accumulator.buckets {
            try bucketStatement.execute(arguments: [
                key.push.pushID, key.bucket, key.push.kind.rawValue, key.push.action, delta.total, delta.duplicates,
            ])
        }
        let timeStatement = try db.cachedStatement(sql: """
            INSERT INTO \(target.time) (bucket, kind, action, total, duplicates) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (bucket, kind, action) DO UPDATE SET
                total = total + excluded.total,
                duplicates = duplicates + excluded.duplicates
            """)
        for (key, delta) in accumulator.times {
            try timeStatement.execute(arguments: [key.bucket, key.kind.rawValue, key.action, delta.total, delta.duplicates])
        }
        for (pushID, histogram) in accumulator.latency {
            try TimingTable.add(histogram, pushID: pushID, to: target.timing, in: db)
        }
        let versionStatement = try db.cachedStatement(sql: """
            INSERT INTO \(target.version) (push_id, dimension, version, kind, action, total, duplicates)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (push_id, dimension, version, kind, action) DO UPDATE SET
                total = total + excluded.total,
                duplicates = duplicates + excluded.duplicates
            """)
        for (key, delta) in accumulator.versions {
            try versionStatement.execute(arguments: [
                key.push.pushID, key.dimension, key.version, key.push.kind.rawValue, key.push.action, delta.total,
                delta.duplicates,
            ])
        }
        let pendingStatement = try db.cachedStatement(sql: """
            INSERT INTO \(target.pending) (push_id, clock, second, count) VALUES (?, ?, ?, ?)
            ON CONFLICT (push_id, clock, second) DO UPDATE SET count = count + excluded.count
            """)
        for (key, count) in accumulator.pending {
            try pendingStatement.execute(arguments: [key.pushID, key.clock, key.second, count])
        }
        try writeOutcomes(accumulator, to: target, in: db)
    }

    private static func writeOutcomes(_ accumulator: RollupAccumulator, to target: RollupTarget, in db: Database) throws {
        let outcome = try db.cachedStatement(sql: """
            INSERT INTO \(target.outcome) (push_id, measure, currency, count, value_micros) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (push_id, measure, currency) DO UPDATE SET
                count = count + excluded.count, value_micros = value_micros + excluded.value_micros
            """)
        for (key, delta) in accumulator.outcomes where !delta.isZero {
            try outcome.execute(arguments: [key.pushID, key.measure.rawValue, key.currency, delta.count, delta.valueMicros])
        }
        let time = try db.cachedStatement(sql: """
            INSERT INTO \(target.outcomeTime) (bucket, measure, currency, count, value_micros) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (bucket, measure, currency) DO UPDATE SET
                count = count + excluded.count, value_micros = value_micros + excluded.value_micros
            """)
        for (key, delta) in accumulator.outcomeTimes where !delta.isZero {
            try time.execute(arguments: [key.bucket, key.measure.rawValue, key.currency, delta.count, delta.valueMicros])
        }
    }
}
