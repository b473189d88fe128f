import GRDB
import PushTallyCore

/// Adds a counter's deltas to SQLite's rollup or ledger tables: one upsert per distinct key, every column
/// additive, never read-modify-write. The per-key statements are bound through ``BoundStatement``: a commit
/// runs about one per event.
enum RollupWriter {
    /// Each table's upsert for one target, rendered once (``SQLDialect/upsert(_:into:values:)``).
    private struct Statements {
        let push, bucket, time, version, pending, outcome, outcomeTime, platformBucket: String

        init(_ target: RollupTarget) {
            let sql = SQLDialect.sqlite
            (push, bucket, time) = (
                sql.upsert(.push, into: target).singleRow, sql.upsert(.bucket, into: target).singleRow,
                sql.upsert(.time, into: target).singleRow
            )
            (version, pending) = (sql.upsert(.version, into: target).singleRow, sql.upsert(.pending, into: target).singleRow)
            (outcome, outcomeTime, platformBucket) = (
                sql.upsert(.outcome, into: target).singleRow, sql.upsert(.outcomeTime, into: target).singleRow,
                sql.upsert(.platformBucket, into: target).singleRow
            )
        }
    }

    private static let rollups = Statements(.rollups)
    private static let ledger = Statements(.ledger)

    static func write(_ accumulator: RollupAccumulator, to target: RollupTarget, in db: Database) throws {
        let sql = target == .rollups ? rollups : ledger
        let pushStatement = try BoundStatement(db, sql: sql.push)
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
        let bucketStatement = try BoundStatement(db, sql: sql.bucket)
        for (key, delta) in accumulator.buckets {
            bucketStatement.bind(1, key.push.pushID)
            bucketStatement.bind(2, key.bucket)
            bucketStatement.bind(3, key.push.kind.rawValue)
            bucketStatement.bind(4, key.push.action)
            bucketStatement.bind(5, delta.total)
            bucketStatement.bind(6, delta.duplicates)
            try bucketStatement.execute()
        }
        if !accumulator.platformBuckets.isEmpty {
            let platformStatement = try BoundStatement(db, sql: sql.platformBucket)
            for (key, delta) in accumulator.platformBuckets {
                platformStatement.bind(1, key.bucket.push.pushID)
                platformStatement.bind(2, key.bucket.bucket)
                platformStatement.bind(3, key.platform)
                platformStatement.bind(4, key.bucket.push.kind.rawValue)
                platformStatement.bind(5, key.bucket.push.action)
                platformStatement.bind(6, delta.total)
                platformStatement.bind(7, delta.duplicates)
                try platformStatement.execute()
            }
        }
        let timeStatement = try BoundStatement(db, sql: sql.time)
        for (key, delta) in accumulator.times {
            timeStatement.bind(1, key.bucket)
            timeStatement.bind(2, key.kind.rawValue)
            timeStatement.bind(3, key.action)
            timeStatement.bind(4, delta.total)
            timeStatement.bind(5, delta.duplicates)
            try timeStatement.execute()
        }
        var timing = TimingTable.Upserts(target: target)
        for (pushID, histogram) in accumulator.latency {
            try timing.add(histogram, pushID: pushID, in: db)
        }
        let versionStatement = try BoundStatement(db, sql: sql.version)
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
        let pendingStatement = try db.cachedStatement(sql: sql.pending)
        for (key, count) in accumulator.pending {
            try pendingStatement.execute(arguments: [key.pushID, key.clock, key.second, count])
        }
        try writeOutcomes(accumulator, sql: sql, in: db)
        var media = MediaRollupWriter(target: target)
        try media.write(accumulator, in: db)
    }

    private static func writeOutcomes(_ accumulator: RollupAccumulator, sql: Statements, in db: Database) throws {
        let outcome = try db.cachedStatement(sql: sql.outcome)
        for (key, delta) in accumulator.outcomes where !delta.isZero {
            try outcome.execute(arguments: [key.pushID, key.measure.rawValue, key.currency, delta.count, delta.value.micros, delta.value.units])
        }
        let time = try db.cachedStatement(sql: sql.outcomeTime)
        for (key, delta) in accumulator.outcomeTimes where !delta.isZero {
            try time.execute(arguments: [key.bucket, key.measure.rawValue, key.currency, delta.count, delta.value.micros, delta.value.units])
        }
    }
}
