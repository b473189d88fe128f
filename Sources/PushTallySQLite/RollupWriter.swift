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

    /// Each count table's value columns as delta fields, in declared order (``RollupTable/deltaFields``).
    private static let pushFields = RollupTable.push.deltaFields
    private static let bucketFields = RollupTable.bucket.deltaFields
    private static let platformBucketFields = RollupTable.platformBucket.deltaFields
    private static let timeFields = RollupTable.time.deltaFields
    private static let versionFields = RollupTable.version.deltaFields
    private static let outcomeFields = RollupTable.outcome.outcomeFields
    private static let outcomeTimeFields = RollupTable.outcomeTime.outcomeFields

    static func write(_ accumulator: RollupAccumulator, to target: RollupTarget, in db: Database) throws {
        let sql = target == .rollups ? rollups : ledger
        let pushStatement = try BoundStatement(db, sql: sql.push)
        let pushFields = Self.pushFields
        for (key, delta) in accumulator.pushes {
            pushStatement.bind(1, key.pushID)
            pushStatement.bind(2, key.kind.rawValue)
            pushStatement.bind(3, key.action)
            pushStatement.bind(delta, pushFields, from: 4)
            try pushStatement.execute()
        }
        let bucketStatement = try BoundStatement(db, sql: sql.bucket)
        let bucketFields = Self.bucketFields
        for (key, delta) in accumulator.buckets {
            bucketStatement.bind(1, key.push.pushID)
            bucketStatement.bind(2, key.bucket)
            bucketStatement.bind(3, key.push.kind.rawValue)
            bucketStatement.bind(4, key.push.action)
            bucketStatement.bind(delta, bucketFields, from: 5)
            try bucketStatement.execute()
        }
        if !accumulator.platformBuckets.isEmpty {
            let platformStatement = try BoundStatement(db, sql: sql.platformBucket)
            let platformFields = Self.platformBucketFields
            for (key, delta) in accumulator.platformBuckets {
                platformStatement.bind(1, key.bucket.push.pushID)
                platformStatement.bind(2, key.bucket.bucket)
                platformStatement.bind(3, key.platform)
                platformStatement.bind(4, key.bucket.push.kind.rawValue)
                platformStatement.bind(5, key.bucket.push.action)
                platformStatement.bind(delta, platformFields, from: 6)
                try platformStatement.execute()
            }
        }
        let timeStatement = try BoundStatement(db, sql: sql.time)
        let timeFields = Self.timeFields
        for (key, delta) in accumulator.times {
            timeStatement.bind(1, key.bucket)
            timeStatement.bind(2, key.kind.rawValue)
            timeStatement.bind(3, key.action)
            timeStatement.bind(delta, timeFields, from: 4)
            try timeStatement.execute()
        }
        var timing = TimingTable.Upserts(target: target)
        for (pushID, histogram) in accumulator.latency {
            try timing.add(histogram, pushID: pushID, in: db)
        }
        let versionStatement = try BoundStatement(db, sql: sql.version)
        let versionFields = Self.versionFields
        for (key, delta) in accumulator.versions {
            versionStatement.bind(1, key.push.pushID)
            versionStatement.bind(2, key.dimension)
            versionStatement.bind(3, key.version)
            versionStatement.bind(4, key.push.kind.rawValue)
            versionStatement.bind(5, key.push.action)
            versionStatement.bind(delta, versionFields, from: 6)
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
        let outcome = try BoundStatement(db, sql: sql.outcome)
        let outcomeFields = Self.outcomeFields
        for (key, delta) in accumulator.outcomes where !delta.isZero {
            outcome.bind(1, key.pushID)
            outcome.bind(2, key.measure.rawValue)
            outcome.bind(3, key.currency)
            outcome.bind(delta, outcomeFields, from: 4)
            try outcome.execute()
        }
        let time = try BoundStatement(db, sql: sql.outcomeTime)
        let timeFields = Self.outcomeTimeFields
        for (key, delta) in accumulator.outcomeTimes where !delta.isZero {
            time.bind(1, key.bucket)
            time.bind(2, key.measure.rawValue)
            time.bind(3, key.currency)
            time.bind(delta, timeFields, from: 4)
            try time.execute()
        }
    }
}

extension BoundStatement {
    /// Binds `delta`'s `fields` in order from position `first`: a count row's values as its table declares them.
    func bind(_ delta: RollupAccumulator.Delta, _ fields: [RollupAccumulator.Delta.Field], from first: Int32) {
        var index = first
        for field in fields {
            bind(index, delta[field])
            index += 1
        }
    }

    /// Binds `delta`'s `fields` in order from position `first`: an outcome row's values as its table declares them.
    func bind(_ delta: RollupAccumulator.OutcomeDelta, _ fields: [RollupAccumulator.OutcomeDelta.Field], from first: Int32) {
        var index = first
        for field in fields {
            bind(index, delta[field])
            index += 1
        }
    }
}
