import GRDB
import PushTallyCore

/// Adds a counter's deltas to SQLite's rollup or ledger tables: one ``AdditiveStatement`` per distinct key,
/// every column additive, never read-modify-write. The per-key statements are bound through
/// ``BoundStatement``: a commit runs about one per event.
enum RollupWriter {
    /// Each count table's value columns as delta fields, in declared order (``RollupTable/deltaFields``).
    private static let pushFields = RollupTable.push.deltaFields
    private static let bucketFields = RollupTable.bucket.deltaFields
    private static let platformBucketFields = RollupTable.platformBucket.deltaFields
    private static let timeFields = RollupTable.time.deltaFields
    private static let versionFields = RollupTable.version.deltaFields
    private static let outcomeFields = RollupTable.outcome.outcomeFields
    private static let outcomeTimeFields = RollupTable.outcomeTime.outcomeFields

    static func write(
        _ accumulator: RollupAccumulator, to target: RollupTarget, statements: RollupStatements, in db: Database
    ) throws {
        let push = try statements.statement(.push, into: target, in: db)
        let pushFields = Self.pushFields
        for (key, delta) in accumulator.pushes {
            try push.add { statement in
                statement.bind(1, key.pushID)
                statement.bind(2, key.kind.rawValue)
                statement.bind(3, key.action)
                statement.bind(delta, pushFields, from: 4)
            }
        }
        let bucket = try statements.statement(.bucket, into: target, in: db)
        let bucketFields = Self.bucketFields
        for (key, delta) in accumulator.buckets {
            try bucket.add { statement in
                statement.bind(1, key.push.pushID)
                statement.bind(2, key.bucket)
                statement.bind(3, key.push.kind.rawValue)
                statement.bind(4, key.push.action)
                statement.bind(delta, bucketFields, from: 5)
            }
        }
        if !accumulator.platformBuckets.isEmpty {
            let platform = try statements.statement(.platformBucket, into: target, in: db)
            let platformFields = Self.platformBucketFields
            for (key, delta) in accumulator.platformBuckets {
                try platform.add { statement in
                    statement.bind(1, key.bucket.push.pushID)
                    statement.bind(2, key.bucket.bucket)
                    statement.bind(3, key.platform)
                    statement.bind(4, key.bucket.push.kind.rawValue)
                    statement.bind(5, key.bucket.push.action)
                    statement.bind(delta, platformFields, from: 6)
                }
            }
        }
        let time = try statements.statement(.time, into: target, in: db)
        let timeFields = Self.timeFields
        for (key, delta) in accumulator.times {
            try time.add { statement in
                statement.bind(1, key.bucket)
                statement.bind(2, key.kind.rawValue)
                statement.bind(3, key.action)
                statement.bind(delta, timeFields, from: 4)
            }
        }
        for (pushID, histogram) in accumulator.latency {
            try TimingTable.add(histogram, pushID: pushID, to: target, statements: statements, in: db)
        }
        if !accumulator.versions.isEmpty {
            let version = try statements.statement(.version, into: target, in: db)
            let versionFields = Self.versionFields
            for (key, delta) in accumulator.versions {
                try version.add { statement in
                    statement.bind(1, key.push.pushID)
                    statement.bind(2, key.dimension)
                    statement.bind(3, key.version)
                    statement.bind(4, key.push.kind.rawValue)
                    statement.bind(5, key.push.action)
                    statement.bind(delta, versionFields, from: 6)
                }
            }
        }
        if !accumulator.pending.isEmpty {
            let pending = try statements.statement(.pending, into: target, in: db)
            for (key, count) in accumulator.pending {
                try pending.add { statement in
                    statement.bind(1, key.pushID)
                    statement.bind(2, key.clock)
                    statement.bind(3, key.second)
                    statement.bind(4, count)
                }
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
        for (key, delta) in accumulator.outcomes where !delta.isZero {
            try outcome.add { statement in
                statement.bind(1, key.pushID)
                statement.bind(2, key.measure.rawValue)
                statement.bind(3, key.currency)
                statement.bind(delta, outcomeFields, from: 4)
            }
        }
        let time = try statements.statement(.outcomeTime, into: target, in: db)
        let timeFields = Self.outcomeTimeFields
        for (key, delta) in accumulator.outcomeTimes where !delta.isZero {
            try time.add { statement in
                statement.bind(1, key.bucket)
                statement.bind(2, key.measure.rawValue)
                statement.bind(3, key.currency)
                statement.bind(delta, timeFields, from: 4)
            }
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
