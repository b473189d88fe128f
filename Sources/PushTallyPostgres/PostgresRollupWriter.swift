import Logging
import PostgresNIO
import PushTallyCore

/// Adds a transaction's counted deltas to the rollup or ledger tables: one multi-row upsert per table,
/// rows in key order, every column additive (`t.total + excluded.total`), never read-modify-write.
enum PostgresRollupWriter {
    static func write(
        _ accumulator: RollupAccumulator, to target: RollupTarget, on connection: PostgresConnection, logger: Logger
    ) async throws {
        var queries: [PostgresQuery] = []
        let pushes = accumulator.pushes.sorted { key($0.key) < key($1.key) }
        queries += SQLBuilder.values(
            pushes, columns: 8,
            head: "INSERT INTO \(target.push) AS t (push_id, kind, action, total, duplicates, first_time, last_time, late)",
            tail: """
                ON CONFLICT (push_id, kind, action) DO UPDATE SET
                    total = t.total + excluded.total, duplicates = t.duplicates + excluded.duplicates,
                    first_time = LEAST(t.first_time, excluded.first_time),
                    last_time = GREATEST(t.last_time, excluded.last_time), late = t.late + excluded.late
                """,
            bind: { entry, sql in
                let (key, delta) = entry
                return [
                    sql.bind(key.pushID), sql.bind(Int64(key.kind.rawValue)), sql.bind(key.action), sql.bind(delta.total),
                    sql.bind(delta.duplicates), sql.bind(delta.firstTime), sql.bind(delta.lastTime), sql.bind(delta.late),
                ]
            })
        let buckets = accumulator.buckets.sorted {
            ($0.key.push.pushID, $0.key.bucket, $0.key.push.kind.rawValue, $0.key.push.action)
                < ($1.key.push.pushID, $1.key.bucket, $1.key.push.kind.rawValue, $1.key.push.action)
        }
        queries += SQLBuilder.values(
            buckets, columns: 6,
            head: "INSERT INTO \(target.bucket) AS t (push_id, bucket, kind, action, total, duplicates)",
            tail: """
                ON CONFLICT (push_id, bucket, kind, action) DO UPDATE SET
                    total = t.total + excluded.total, duplicates = t.duplicates + excluded.duplicates
                """,
            bind: { entry, sql in
                let (key, delta) = entry
                return [
                    sql.bind(key.push.pushID), sql.bind(key.bucket), sql.bind(Int64(key.push.kind.rawValue)),
                    sql.bind(key.push.action), sql.bind(delta.total), sql.bind(delta.duplicates),
                ]
            })
        queries += timingUpserts(accumulator.latency.sorted { $0.key < $1.key }, table: target.timing)
        let versions = accumulator.versions.sorted {
            ($0.key.push.pushID, $0.key.dimension, $0.key.version, $0.key.push.kind.rawValue, $0.key.push.action)
                < ($1.key.push.pushID, $1.key.dimension, $1.key.version, $1.key.push.kind.rawValue, $1.key.push.action)
        }
        queries += SQLBuilder.values(
            versions, columns: 7,
            head: "INSERT INTO \(target.version) AS t (push_id, dimension, version, kind, action, total, duplicates)",
            tail: """
                ON CONFLICT (push_id, dimension, version, kind, action) DO UPDATE SET
                    total = t.total + excluded.total, duplicates = t.duplicates + excluded.duplicates
                """,
            bind: { entry, sql in
                let (key, delta) = entry
                return [
                    sql.bind(key.push.pushID), sql.bind(Int64(key.dimension)), sql.bind(key.version),
                    sql.bind(Int64(key.push.kind.rawValue)), sql.bind(key.push.action), sql.bind(delta.total),
                    sql.bind(delta.duplicates),
                ]
            })
        let pending = accumulator.pending.sorted { ($0.key.pushID, $0.key.clock, $0.key.second) < ($1.key.pushID, $1.key.clock, $1.key.second) }
        queries += SQLBuilder.values(
            pending, columns: 4,
            head: "INSERT INTO \(target.pending) AS t (push_id, clock, second, count)",
            tail: "ON CONFLICT (push_id, clock, second) DO UPDATE SET count = t.count + excluded.count",
            bind: { entry, sql in
                [sql.bind(entry.key.pushID), sql.bind(Int64(entry.key.clock)), sql.bind(entry.key.second), sql.bind(entry.value)]
            })
        for query in queries {
            try await connection.query(query, logger: logger)
        }
    }

    /// Upserts whole histogram rows: a round trip costs more here than SQLite's per-column statements saved.
    static func timingUpserts(_ histograms: [(key: String, value: LatencyHistogram)], table: String) -> [PostgresQuery] {
        let columns = TimingTable.columns
        return SQLBuilder.values(
            histograms, columns: columns.count + 1,
            head: "INSERT INTO \(table) AS t (push_id, \(columns.joined(separator: ", ")))",
            tail: "ON CONFLICT (push_id) DO UPDATE SET "
                + columns.map { "\($0) = t.\($0) + excluded.\($0)" }.joined(separator: ", "),
            bind: { entry, sql in [sql.bind(entry.key)] + entry.value.counts.map { sql.bind($0) } })
    }

    private static func key(_ key: RollupAccumulator.PushKey) -> (String, Int, String) {
        (key.pushID, key.kind.rawValue, key.action)
    }
}
