import GRDB
import PushTallyCore

/// Adds a counter's deltas to SQLite's rollup or ledger tables: one upsert per distinct key, every column
/// additive, never read-modify-write. The per-key statements are bound through ``BoundStatement``: a commit
/// runs about one per event.
enum RollupWriter {
    static func write(_ accumulator: RollupAccumulator, to target: RollupTarget, in db: Database) throws {
        let pushStatement = try BoundStatement(db, sql: """
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
            pushStatement.bind(1, key.pushID)
            pushStatement.bind(2, key.kind.rawValue)
            pushStatement.bind(3, key.action)
            pushStatement.bind(4, delta.total)
            pushStatement.bind(5, delta.duplicates)
            pushStatement.bind(6, delta.firstTime)
            pushStatement.bind(7, delta.lastTime)
            pushStatement.bind(8, delta.late)
            try pushStatement.execute()
        }
        let bucketStatement = try BoundStatement(db, sql: """
            INSERT INTO \(target.bucket) (push_id, bucket, kind, action, total, duplicates)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (push_id, bucket, kind, action) DO UPDATE SET
                total = total + excluded.total,
                duplicates = duplicates + excluded.duplicates
            """)
        for (key, delta) in accumulator.buckets {
            bucketStatement.bind(1, key.push.pushID)
            bucketStatement.bind(2, key.bucket)
            bucketStatement.bind(3, key.push.kind.rawValue)
            bucketStatement.bind(4, key.push.action)
            bucketStatement.bind(5, delta.total)
            bucketStatement.bind(6, delta.duplicates)
            try bucketStatement.execute()
        }
        let timeStatement = try BoundStatement(db, sql: """
            INSERT INTO \(target.time) (bucket, kind, action, total, duplicates) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (bucket, kind, action) DO UPDATE SET
                total = total + excluded.total,
                duplicates = duplicates + excluded.duplicates
            """)
        for (key, delta) in accumulator.times {
            timeStatement.bind(1, key.bucket)
            timeStatement.bind(2, key.kind.rawValue)
            timeStatement.bind(3, key.action)
            timeStatement.bind(4, delta.total)
            timeStatement.bind(5, delta.duplicates)
            try timeStatement.execute()
        }
        var timing = TimingTable.Upserts(table: target.timing)
        for (pushID, histogram) in accumulator.latency {
            try timing.add(histogram, pushID: pushID, in: db)
        }
        let versionStatement = try BoundStatement(db, sql: """
            INSERT INTO \(target.version) (push_id, dimension, version, kind, action, total, duplicates)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (push_id, dimension, version, kind, action) DO UPDATE SET
                total = total + excluded.total,
                duplicates = duplicates + excluded.duplicates
            """)
        for (key, delta) in accumulator.versions {
            versionStatement.bind(1, key.push.pushID)
            versionStatement.bind(2, key.dimension)
            versionStatement.bind(3, key.version)
            versionStatement.bind(4, key.push.kind.rawValue)
            versionStatement.bind(5, key.push.action)
            versionStatement.bind(6, delta.total)
            versionStatement.bind(7, delta.duplicates)
            try versionStatement.execute()
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
