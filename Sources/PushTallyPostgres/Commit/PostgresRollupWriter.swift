import Logging
import PostgresNIO
import PushTallyCore

/// Adds a transaction's counted deltas to the rollup or ledger tables: one multi-row upsert per table,
/// rows in key order, every column additive (`t.total + excluded.total`), never read-modify-write.
///
/// Live rollup rows carry a `shard`, one per collector: a campaign's receipts all update the same few rows
/// (its push, its current 15 minutes), and a row lock is held until commit, so collectors sharing one row
/// would take turns. Each writes its own row of a key instead; reports add the rows up, as they add up a
/// push's rows anyway. The ledger, written only by pruning, is not sharded.
enum PostgresRollupWriter {
    static func write(
        _ accumulator: RollupAccumulator, to target: RollupTarget, shard: Int64, on connection: PostgresConnection,
        logger: Logger
    ) async throws {
        for query in SQLBuilder.combined(parts(accumulator, to: target, shard: shard)) {
            try await connection.run(query, logger: logger)
        }
    }

    /// Each table's upsert for one target, rendered once (``SQLDialect/upsert(_:into:values:)``).
    struct Upserts {
        let push, bucket, time, version, pending, outcome, outcomeTime, timing: RollupUpsert
        let media, mediaBucket, mediaVersion, platformBucket: RollupUpsert

        init(_ target: RollupTarget) {
            let sql = SQLDialect.postgres
            (push, bucket, time, version) = (
                sql.upsert(.push, into: target), sql.upsert(.bucket, into: target), sql.upsert(.time, into: target),
                sql.upsert(.version, into: target)
            )
            (pending, outcome, outcomeTime, timing) = (
                sql.upsert(.pending, into: target), sql.upsert(.outcome, into: target),
                sql.upsert(.outcomeTime, into: target), sql.upsert(.timing, into: target)
            )
            (media, mediaBucket, mediaVersion, platformBucket) = (
                sql.upsert(.media, into: target), sql.upsert(.mediaBucket, into: target), sql.upsert(.mediaVersion, into: target),
                sql.upsert(.platformBucket, into: target)
            )
        }

        static let rollups = Upserts(.rollups)
        static let ledger = Upserts(.ledger)
        static func of(_ target: RollupTarget) -> Upserts { target == .rollups ? rollups : ledger }
    }

    /// Each count and outcome table's value columns as delta fields, in declared order (``RollupTable/deltaFields``):
    /// every writer binds a row's values in this order.
    enum Fields {
        static let push = RollupTable.push.deltaFields
        static let bucket = RollupTable.bucket.deltaFields
        static let time = RollupTable.time.deltaFields
        static let version = RollupTable.version.deltaFields
        static let platformBucket = RollupTable.platformBucket.deltaFields
        static let outcome = RollupTable.outcome.outcomeFields
        static let outcomeTime = RollupTable.outcomeTime.outcomeFields
    }

    /// The upserts of `accumulator`, one part per table, for a statement of their own or a combined one.
    static func parts(_ accumulator: RollupAccumulator, to target: RollupTarget, shard: Int64) -> [ValuesPart] {
        let upserts = Upserts.of(target)
        let shard = SQLDialect.postgres.shards(target) ? shard : nil
        func shardValue(_ sql: inout SQLBuilder) -> [String] { shard.map { [sql.bind($0)] } ?? [] }
        let sorted = SortedRollups(accumulator)
        return [
            ValuesPart(sorted.pushes, upsert: upserts.push) { entry, sql in
                let (key, delta) = entry
                return [sql.bind(key.pushID), sql.bind(Int64(key.kind.rawValue)), sql.bind(key.action)]
                    + sql.bind(delta, Fields.push) + shardValue(&sql)
            },
            ValuesPart(sorted.buckets, upsert: upserts.bucket) { entry, sql in
                let (key, delta) = entry
                return [
                    sql.bind(key.push.pushID), sql.bind(key.bucket), sql.bind(Int64(key.push.kind.rawValue)), sql.bind(key.push.action),
                ] + sql.bind(delta, Fields.bucket) + shardValue(&sql)
            },
            ValuesPart(sorted.times, upsert: upserts.time) { entry, sql in
                let (key, delta) = entry
                return [sql.bind(key.bucket), sql.bind(Int64(key.kind.rawValue)), sql.bind(key.action)]
                    + sql.bind(delta, Fields.time) + shardValue(&sql)
            },
            timingPart(sorted.latency, to: target, shard: shard ?? 0),
            ValuesPart(sorted.versions, upsert: upserts.version) { entry, sql in
                let (key, delta) = entry
                return [
                    sql.bind(key.push.pushID), sql.bind(Int64(key.dimension)), sql.bind(key.version),
                    sql.bind(Int64(key.push.kind.rawValue)), sql.bind(key.push.action),
                ] + sql.bind(delta, Fields.version) + shardValue(&sql)
            },
            ValuesPart(sorted.pending, upsert: upserts.pending) { entry, sql in
                [sql.bind(entry.key.pushID), sql.bind(Int64(entry.key.clock)), sql.bind(entry.key.second), sql.bind(entry.value)]
                    + shardValue(&sql)
            },
        ] + outcomeParts(accumulator, upserts: upserts, shard: shard) + mediaParts(sorted, upserts: upserts, shard: shard) + [
            // Last, as the one-statement receipt commit writes it last (``ReceiptCommitStatement``): one table order.
            ValuesPart(sorted.platformBuckets, upsert: upserts.platformBucket) { entry, sql in
                let (key, delta) = entry
                return [
                    sql.bind(key.bucket.push.pushID), sql.bind(key.bucket.bucket), sql.bind(key.platform),
                    sql.bind(Int64(key.bucket.push.kind.rawValue)), sql.bind(key.bucket.push.action),
                ] + sql.bind(delta, Fields.platformBucket) + shardValue(&sql)
            },
        ]
    }

    /// The media upserts: counts, and the extension-time buckets of the tables that keep them, whole.
    private static func mediaParts(_ sorted: SortedRollups, upserts: Upserts, shard: Int64?) -> [ValuesPart] {
        func values(_ media: MediaOutcomes, histogram: Bool, _ sql: inout SQLBuilder) -> [String] {
            (media.counts + (histogram ? media.extensionTime.counts : [])).map { sql.bind($0) } + (shard.map { [sql.bind($0)] } ?? [])
        }
        return [
            ValuesPart(sorted.media, upsert: upserts.media) { entry, sql in
                [sql.bind(entry.key)] + values(entry.value, histogram: true, &sql)
            },
            ValuesPart(sorted.mediaBuckets, upsert: upserts.mediaBucket) { entry, sql in
                [sql.bind(entry.key.pushID), sql.bind(entry.key.bucket)] + values(entry.value, histogram: false, &sql)
            },
            ValuesPart(sorted.mediaVersions, upsert: upserts.mediaVersion) { entry, sql in
                [sql.bind(entry.key.pushID), sql.bind(Int64(entry.key.dimension)), sql.bind(entry.key.version)]
                    + values(entry.value, histogram: true, &sql)
            },
        ]
    }

    /// The outcome upserts: counts and values may be negative (a credit moved away), so moves that cancel out
    /// within the transaction are left out.
    private static func outcomeParts(_ accumulator: RollupAccumulator, upserts: Upserts, shard: Int64?) -> [ValuesPart] {
        let (outcomes, times) = sortedOutcomes(accumulator)
        return [
            ValuesPart(outcomes, upsert: upserts.outcome) { entry, sql in
                [sql.bind(entry.key.pushID), sql.bind(Int64(entry.key.measure.rawValue)), sql.bind(entry.key.currency)]
                    + sql.bind(entry.value, Fields.outcome) + (shard.map { [sql.bind($0)] } ?? [])
            },
            ValuesPart(times, upsert: upserts.outcomeTime) { entry, sql in
                [sql.bind(entry.key.bucket), sql.bind(Int64(entry.key.measure.rawValue)), sql.bind(entry.key.currency)]
                    + sql.bind(entry.value, Fields.outcomeTime) + (shard.map { [sql.bind($0)] } ?? [])
            },
        ]
    }

    /// The outcome deltas that change a row, each table's in key order (the order every writer locks rows in).
    static func sortedOutcomes(_ accumulator: RollupAccumulator) -> (
        outcomes: [(key: RollupAccumulator.OutcomeKey, value: RollupAccumulator.OutcomeDelta)],
        times: [(key: RollupAccumulator.OutcomeTimeKey, value: RollupAccumulator.OutcomeDelta)]
    ) {
        let outcomes = accumulator.outcomes.filter { !$0.value.isZero }.sorted {
            ($0.key.pushID, $0.key.measure.rawValue, $0.key.currency) < ($1.key.pushID, $1.key.measure.rawValue, $1.key.currency)
        }
        let times = accumulator.outcomeTimes.filter { !$0.value.isZero }.sorted {
            ($0.key.bucket, $0.key.measure.rawValue, $0.key.currency) < ($1.key.bucket, $1.key.measure.rawValue, $1.key.currency)
        }
        return (outcomes.map { ($0.key, $0.value) }, times.map { ($0.key, $0.value) })
    }

    /// Upserts whole histogram rows into `target` (written to rollup shard `shard` when the target is
    /// sharded): a round trip costs more here than SQLite's per-column statements saved.
    static func timingPart(_ histograms: [(key: String, value: LatencyHistogram)], to target: RollupTarget, shard: Int64) -> ValuesPart {
        let sharded = SQLDialect.postgres.shards(target)
        return ValuesPart(histograms, upsert: Upserts.of(target).timing) { entry, sql in
            [sql.bind(entry.key)] + entry.value.counts.map { sql.bind($0) } + (sharded ? [sql.bind(shard)] : [])
        }
    }
}

extension SQLBuilder {
    /// Binds `delta`'s `fields` in order: a count row's values as its table declares them.
    mutating func bind(_ delta: RollupAccumulator.Delta, _ fields: [RollupAccumulator.Delta.Field]) -> [String] {
        fields.map { bind(delta[$0]) }
    }

    /// Binds `delta`'s `fields` in order: an outcome row's values as its table declares them.
    mutating func bind(_ delta: RollupAccumulator.OutcomeDelta, _ fields: [RollupAccumulator.OutcomeDelta.Field]) -> [String] {
        fields.map { bind(delta[$0]) }
    }
}

extension ValuesPart {
    /// The rows of `upsert`, each binding its columns in the upsert's order.
    init<Row>(_ rows: [Row], upsert: RollupUpsert, bind: @escaping (Row, inout SQLBuilder) -> [String]) {
        self.init(rows, columns: upsert.columnCount, head: upsert.head, tail: upsert.conflict, bind: bind)
    }
}

/// A transaction's rollup deltas, each table's rows in the key order every writer takes its row locks in.
struct SortedRollups {
    let pushes: [(key: RollupAccumulator.PushKey, value: RollupAccumulator.Delta)]
    let buckets: [(key: RollupAccumulator.BucketKey, value: RollupAccumulator.Delta)]
    let platformBuckets: [(key: RollupAccumulator.PlatformBucketKey, value: RollupAccumulator.Delta)]
    let times: [(key: RollupAccumulator.TimeKey, value: RollupAccumulator.Delta)]
    let latency: [(key: String, value: LatencyHistogram)]
    let versions: [(key: RollupAccumulator.VersionKey, value: RollupAccumulator.Delta)]
    let pending: [(key: RollupAccumulator.PendingKey, value: Int64)]
    let media: [(key: String, value: MediaOutcomes)]
    let mediaBuckets: [(key: RollupAccumulator.MediaBucketKey, value: MediaOutcomes)]
    let mediaVersions: [(key: RollupAccumulator.MediaVersionKey, value: MediaOutcomes)]

    init(_ accumulator: RollupAccumulator) {
        pushes = accumulator.pushes.sorted {
            ($0.key.pushID, $0.key.kind.rawValue, $0.key.action) < ($1.key.pushID, $1.key.kind.rawValue, $1.key.action)
        }
        buckets = accumulator.buckets.sorted {
            ($0.key.push.pushID, $0.key.bucket, $0.key.push.kind.rawValue, $0.key.push.action)
                < ($1.key.push.pushID, $1.key.bucket, $1.key.push.kind.rawValue, $1.key.push.action)
        }
        platformBuckets = accumulator.platformBuckets.sorted {
            ($0.key.bucket.push.pushID, $0.key.bucket.bucket, $0.key.platform, $0.key.bucket.push.kind.rawValue, $0.key.bucket.push.action)
                < ($1.key.bucket.push.pushID, $1.key.bucket.bucket, $1.key.platform, $1.key.bucket.push.kind.rawValue, $1.key.bucket.push.action)
        }
        times = accumulator.times.sorted {
            ($0.key.bucket, $0.key.kind.rawValue, $0.key.action) < ($1.key.bucket, $1.key.kind.rawValue, $1.key.action)
        }
        latency = accumulator.latency.sorted { $0.key < $1.key }
        versions = accumulator.versions.sorted {
            ($0.key.push.pushID, $0.key.dimension, $0.key.version, $0.key.push.kind.rawValue, $0.key.push.action)
                < ($1.key.push.pushID, $1.key.dimension, $1.key.version, $1.key.push.kind.rawValue, $1.key.push.action)
        }
        pending = accumulator.pending.sorted {
            ($0.key.pushID, $0.key.clock, $0.key.second) < ($1.key.pushID, $1.key.clock, $1.key.second)
        }
        media = accumulator.media.sorted { $0.key < $1.key }
        mediaBuckets = accumulator.mediaBuckets.sorted { ($0.key.pushID, $0.key.bucket) < ($1.key.pushID, $1.key.bucket) }
        mediaVersions = accumulator.mediaVersions.sorted {
            ($0.key.pushID, $0.key.dimension, $0.key.version) < ($1.key.pushID, $1.key.dimension, $1.key.version)
        }
    }
}
