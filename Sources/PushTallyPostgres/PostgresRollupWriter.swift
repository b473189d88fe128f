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

    /// The upserts of `accumulator`, one part per table, for a statement of their own or a combined one.
    static func parts(_ accumulator: RollupAccumulator, to target: RollupTarget, shard: Int64) -> [ValuesPart] {
        let sharded = target == .rollups
        let shardColumn = sharded ? ", shard" : ""
        func shardValue(_ sql: inout SQLBuilder) -> [String] { sharded ? [sql.bind(shard)] : [] }
        let extra = sharded ? 1 : 0
        let sorted = SortedRollups(accumulator)
        let (pushes, buckets, times, versions, pending) = (sorted.pushes, sorted.buckets, sorted.times, sorted.versions, sorted.pending)
        return [
            ValuesPart(
                pushes, columns: 8 + extra,
                head: "INSERT INTO \(target.push) AS t (push_id, kind, action, total, duplicates, first_time, last_time, late\(shardColumn))",
                tail: """
                    ON CONFLICT (push_id, kind, action\(shardColumn)) DO UPDATE SET
                        total = t.total + excluded.total, duplicates = t.duplicates + excluded.duplicates,
                        first_time = LEAST(t.first_time, excluded.first_time),
                        last_time = GREATEST(t.last_time, excluded.last_time), late = t.late + excluded.late
                    """,
                bind: { entry, sql in
                    let (key, delta) = entry
                    return [
                        sql.bind(key.pushID), sql.bind(Int64(key.kind.rawValue)), sql.bind(key.action), sql.bind(delta.total),
                        sql.bind(delta.duplicates), sql.bind(delta.firstTime), sql.bind(delta.lastTime), sql.bind(delta.late),
                    ] + shardValue(&sql)
                }),
            ValuesPart(
                buckets, columns: 6 + extra,
                head: "INSERT INTO \(target.bucket) AS t (push_id, bucket, kind, action, total, duplicates\(shardColumn))",
                tail: """
                    ON CONFLICT (push_id, bucket, kind, action\(shardColumn)) DO UPDATE SET
                        total = t.total + excluded.total, duplicates = t.duplicates + excluded.duplicates
                    """,
                bind: { entry, sql in
                    let (key, delta) = entry
                    return [
                        sql.bind(key.push.pushID), sql.bind(key.bucket), sql.bind(Int64(key.push.kind.rawValue)),
                        sql.bind(key.push.action), sql.bind(delta.total), sql.bind(delta.duplicates),
                    ] + shardValue(&sql)
                }),
            ValuesPart(
                times, columns: 5 + extra,
                head: "INSERT INTO \(target.time) AS t (bucket, kind, action, total, duplicates\(shardColumn))",
                tail: """
                    ON CONFLICT (bucket, kind, action\(shardColumn)) DO UPDATE SET
                        total = t.total + excluded.total, duplicates = t.duplicates + excluded.duplicates
                    """,
                bind: { entry, sql in
                    let (key, delta) = entry
                    return [
                        sql.bind(key.bucket), sql.bind(Int64(key.kind.rawValue)), sql.bind(key.action), sql.bind(delta.total),
                        sql.bind(delta.duplicates),
                    ] + shardValue(&sql)
                }),
            timingPart(sorted.latency, table: target.timing, shard: sharded ? shard : nil),
            ValuesPart(
                versions, columns: 7 + extra,
                head: "INSERT INTO \(target.version) AS t (push_id, dimension, version, kind, action, total, duplicates\(shardColumn))",
                tail: """
                    ON CONFLICT (push_id, dimension, version, kind, action\(shardColumn)) DO UPDATE SET
                        total = t.total + excluded.total, duplicates = t.duplicates + excluded.duplicates
                    """,
                bind: { entry, sql in
                    let (key, delta) = entry
                    return [
                        sql.bind(key.push.pushID), sql.bind(Int64(key.dimension)), sql.bind(key.version),
                        sql.bind(Int64(key.push.kind.rawValue)), sql.bind(key.push.action), sql.bind(delta.total),
                        sql.bind(delta.duplicates),
                    ] + shardValue(&sql)
                }),
            ValuesPart(
                pending, columns: 4 + extra,
                head: "INSERT INTO \(target.pending) AS t (push_id, clock, second, count\(shardColumn))",
                tail: "ON CONFLICT (push_id, clock, second\(shardColumn)) DO UPDATE SET count = t.count + excluded.count",
                bind: { entry, sql in
                    [sql.bind(entry.key.pushID), sql.bind(Int64(entry.key.clock)), sql.bind(entry.key.second), sql.bind(entry.value)]
                        + shardValue(&sql)
                }),
        ] + outcomeParts(accumulator, to: target, shard: sharded ? shard : nil)
    }

    /// The outcome upserts: counts and values may be negative (a credit moved away), so moves that cancel out
    /// within the transaction are left out.
    private static func outcomeParts(_ accumulator: RollupAccumulator, to target: RollupTarget, shard: Int64?) -> [ValuesPart] {
        let shardColumn = shard == nil ? "" : ", shard"
        let additive = "count = t.count + excluded.count, value_micros = t.value_micros + excluded.value_micros"
        let outcomes = accumulator.outcomes.filter { !$0.value.isZero }.sorted {
            ($0.key.pushID, $0.key.measure.rawValue, $0.key.currency) < ($1.key.pushID, $1.key.measure.rawValue, $1.key.currency)
        }
        let times = accumulator.outcomeTimes.filter { !$0.value.isZero }.sorted {
            ($0.key.bucket, $0.key.measure.rawValue, $0.key.currency) < ($1.key.bucket, $1.key.measure.rawValue, $1.key.currency)
        }
        return [
            ValuesPart(
                outcomes, columns: 5 + (shard == nil ? 0 : 1),
                head: "INSERT INTO \(target.outcome) AS t (push_id, measure, currency, count, value_micros\(shardColumn))",
                tail: "ON CONFLICT (push_id, measure, currency\(shardColumn)) DO UPDATE SET \(additive)",
                bind: { entry, sql in
                    [
                        sql.bind(entry.key.pushID), sql.bind(Int64(entry.key.measure.rawValue)), sql.bind(entry.key.currency),
                        sql.bind(entry.value.count), sql.bind(entry.value.valueMicros),
                    ] + (shard.map { [sql.bind($0)] } ?? [])
                }),
            ValuesPart(
                times, columns: 5 + (shard == nil ? 0 : 1),
                head: "INSERT INTO \(target.outcomeTime) AS t (bucket, measure, currency, count, value_micros\(shardColumn))",
                tail: "ON CONFLICT (bucket, measure, currency\(shardColumn)) DO UPDATE SET \(additive)",
                bind: { entry, sql in
                    [
                        sql.bind(entry.key.bucket), sql.bind(Int64(entry.key.measure.rawValue)), sql.bind(entry.key.currency),
                        sql.bind(entry.value.count), sql.bind(entry.value.valueMicros),
                    ] + (shard.map { [sql.bind($0)] } ?? [])
                }),
        ]
    }

    /// Upserts whole histogram rows (`shard` for the live rollups, `nil` for the ledger): a round trip costs
    /// more here than SQLite's per-column statements saved.
    static func timingPart(_ histograms: [(key: String, value: LatencyHistogram)], table: String, shard: Int64?) -> ValuesPart {
        let columns = TimingColumns.names
        let shardColumn = shard == nil ? "" : ", shard"
        return ValuesPart(
            histograms, columns: columns.count + 1 + (shard == nil ? 0 : 1),
            head: "INSERT INTO \(table) AS t (push_id, \(columns.joined(separator: ", "))\(shardColumn))",
            tail: "ON CONFLICT (push_id\(shardColumn)) DO UPDATE SET "
                + columns.map { "\($0) = t.\($0) + excluded.\($0)" }.joined(separator: ", "),
            bind: { entry, sql in
                [sql.bind(entry.key)] + entry.value.counts.map { sql.bind($0) } + (shard.map { [sql.bind($0)] } ?? [])
            })
    }

}

/// A transaction's rollup deltas, each table's rows in the key order every writer takes its row locks in.
struct SortedRollups {
    let pushes: [(key: RollupAccumulator.PushKey, value: RollupAccumulator.Delta)]
    let buckets: [(key: RollupAccumulator.BucketKey, value: RollupAccumulator.Delta)]
    let times: [(key: RollupAccumulator.TimeKey, value: RollupAccumulator.Delta)]
    let latency: [(key: String, value: LatencyHistogram)]
    let versions: [(key: RollupAccumulator.VersionKey, value: RollupAccumulator.Delta)]
    let pending: [(key: RollupAccumulator.PendingKey, value: Int64)]

    init(_ accumulator: RollupAccumulator) {
        pushes = accumulator.pushes.sorted {
            ($0.key.pushID, $0.key.kind.rawValue, $0.key.action) < ($1.key.pushID, $1.key.kind.rawValue, $1.key.action)
        }
        buckets = accumulator.buckets.sorted {
            ($0.key.push.pushID, $0.key.bucket, $0.key.push.kind.rawValue, $0.key.push.action)
                < ($1.key.push.pushID, $1.key.bucket, $1.key.push.kind.rawValue, $1.key.push.action)
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
    }
}
