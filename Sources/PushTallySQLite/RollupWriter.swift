import GRDB
import PushTallyCore

/// Adds a counter's deltas to SQLite's rollup or ledger tables: one ``AdditiveStatement`` per distinct key,
/// every column additive, never read-modify-write. The per-key statements are bound through
/// ``BoundStatement``: a commit runs about one per event. Keys bind by their table's declaration
/// (``RollupKeyBinder``), values by its declared fields.
enum RollupWriter {
    /// Each count table's value columns as delta fields, in declared order (``RollupTable/deltaFields``).
    private static let pushFields = RollupTable.push.deltaFields
    private static let bucketFields = RollupTable.bucket.deltaFields
    private static let platformBucketFields = RollupTable.platformBucket.deltaFields
    private static let timeFields = RollupTable.time.deltaFields
    private static let versionFields = RollupTable.version.deltaFields
    private static let outcomeFields = RollupTable.outcome.outcomeFields
    private static let outcomeTimeFields = RollupTable.outcomeTime.outcomeFields
    /// Each count table's key columns (``RollupKeyBinder``), read from its declaration once, not every commit.
    private static let pushKeys = RollupKeyBinder<RollupAccumulator.PushKey>(.push)
    private static let bucketKeys = RollupKeyBinder<RollupAccumulator.BucketKey>(.bucket)
    private static let platformBucketKeys = RollupKeyBinder<RollupAccumulator.PlatformBucketKey>(.platformBucket)
    private static let timeKeys = RollupKeyBinder<RollupAccumulator.TimeKey>(.time)
    private static let versionKeys = RollupKeyBinder<RollupAccumulator.VersionKey>(.version)
    private static let pendingKeys = RollupKeyBinder<RollupAccumulator.PendingKey>(.pending)
    private static let outcomeKeys = RollupKeyBinder<RollupAccumulator.OutcomeKey>(.outcome)
    private static let outcomeTimeKeys = RollupKeyBinder<RollupAccumulator.OutcomeTimeKey>(.outcomeTime)

    static func write(
        _ accumulator: RollupAccumulator, to target: RollupTarget, statements: RollupStatements, in db: Database
    ) throws {
        let push = try statements.statement(.push, into: target, in: db)
        let pushFields = Self.pushFields
        let pushKeys = Self.pushKeys
        for (key, delta) in accumulator.pushes {
            try push.add { statement in statement.bind(delta, pushFields, from: pushKeys.bind(key, to: statement)) }
        }
        let bucket = try statements.statement(.bucket, into: target, in: db)
        let bucketFields = Self.bucketFields
        let bucketKeys = Self.bucketKeys
        for (key, delta) in accumulator.buckets {
            try bucket.add { statement in statement.bind(delta, bucketFields, from: bucketKeys.bind(key, to: statement)) }
        }
        if !accumulator.platformBuckets.isEmpty {
            let platform = try statements.statement(.platformBucket, into: target, in: db)
            let platformFields = Self.platformBucketFields
            let platformKeys = Self.platformBucketKeys
            for (key, delta) in accumulator.platformBuckets {
                try platform.add { statement in statement.bind(delta, platformFields, from: platformKeys.bind(key, to: statement)) }
            }
        }
        let time = try statements.statement(.time, into: target, in: db)
        let timeFields = Self.timeFields
        let timeKeys = Self.timeKeys
        for (key, delta) in accumulator.times {
            try time.add { statement in statement.bind(delta, timeFields, from: timeKeys.bind(key, to: statement)) }
        }
        for (pushID, histogram) in accumulator.latency {
            try TimingTable.add(histogram, pushID: pushID, to: target, statements: statements, in: db)
        }
        if !accumulator.versions.isEmpty {
            let version = try statements.statement(.version, into: target, in: db)
            let versionFields = Self.versionFields
            let versionKeys = Self.versionKeys
            for (key, delta) in accumulator.versions {
                try version.add { statement in statement.bind(delta, versionFields, from: versionKeys.bind(key, to: statement)) }
            }
        }
        if !accumulator.pending.isEmpty {
            let pending = try statements.statement(.pending, into: target, in: db)
            let pendingKeys = Self.pendingKeys
            for (key, count) in accumulator.pending {
                try pending.add { statement in statement.bind(pendingKeys.bind(key, to: statement), count) }
            }
        }
        try writeOutcomes(accumulator, to: target, statements: statements, in: db)
        try MediaRollupWriter(target: target, statements: statements).write(accumulator, in: db)
    }

    private static func writeOutcomes(
        _ accumulator: RollupAccumulator, to target: RollupTarget, statements: RollupStatements, in db: Database
    ) throws {
        guard !accumulator.outcomes.isEmpty || !accumulator.outcomeTimes.isEmpty else { return }
        let outcome = try statements.statement(.outcome, into: target, in: db)
        let outcomeFields = Self.outcomeFields
        let outcomeKeys = Self.outcomeKeys
        for (key, delta) in accumulator.outcomes where !delta.isZero {
            try outcome.add { statement in statement.bind(delta, outcomeFields, from: outcomeKeys.bind(key, to: statement)) }
        }
        let time = try statements.statement(.outcomeTime, into: target, in: db)
        let timeFields = Self.outcomeTimeFields
        let timeKeys = Self.outcomeTimeKeys
        for (key, delta) in accumulator.outcomeTimes where !delta.isZero {
            try time.add { statement in statement.bind(delta, timeFields, from: timeKeys.bind(key, to: statement)) }
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
