import PostgresNIO
import PushTallyCore

/// A one-statement group commit of receipts (displays and actions, the bulk of ingest) as a prepared
/// statement: every raw row and rollup row travels as a column array that `unnest` turns back into rows, so
/// the text is the same whatever the batch. PostgreSQL parses and plans it once per connection instead of
/// once per commit (a third of its time per commit when the text varied with the batch), and the collector
/// binds some fifty arrays instead of building a statement of a few hundred placeholders.
///
/// It does what ``PostgresOneStatementCommit``'s built statement does, in the same order: the main query's
/// `pushtally_ingest_guard` call runs first, then the unreferenced `WITH` clauses last to first, each
/// table's rows in ``SortedRollups`` order (arrays keep their order through `unnest`).
struct ReceiptCommitStatement: PostgresPreparedStatement {
    typealias Row = Bool

    static let name = "pushtally_receipt_commit_v1"

    static let sql: String = {
        let histogram = TimingColumns.names.enumerated().map { index, _ in
            "($32::bigint[])[(u.o - 1) * \(TimingColumns.count) + \(index + 1)]"
        }
        let counts = "total = t.total + excluded.total, duplicates = t.duplicates + excluded.duplicates"
        return """
            WITH w0 AS (
                INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate,
                                    device_id, receipt_id, platform, app_version, os_version)
                SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::boolean[],
                                     $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
            ), w1 AS (
                INSERT INTO rollup_push AS t (push_id, kind, action, total, duplicates, first_time, last_time, late, shard)
                SELECT *, $44::bigint FROM unnest($12::text[], $13::bigint[], $14::text[], $15::bigint[], $16::bigint[],
                                                 $17::bigint[], $18::bigint[], $19::bigint[])
                ON CONFLICT (push_id, kind, action, shard) DO UPDATE SET \(counts),
                    first_time = LEAST(t.first_time, excluded.first_time),
                    last_time = GREATEST(t.last_time, excluded.last_time), late = t.late + excluded.late
            ), w2 AS (
                INSERT INTO rollup_bucket AS t (push_id, bucket, kind, action, total, duplicates, shard)
                SELECT *, $44::bigint FROM unnest($20::text[], $21::bigint[], $22::bigint[], $23::text[], $24::bigint[], $25::bigint[])
                ON CONFLICT (push_id, bucket, kind, action, shard) DO UPDATE SET \(counts)
            ), w3 AS (
                INSERT INTO rollup_time AS t (bucket, kind, action, total, duplicates, shard)
                SELECT *, $44::bigint FROM unnest($26::bigint[], $27::bigint[], $28::text[], $29::bigint[], $30::bigint[])
                ON CONFLICT (bucket, kind, action, shard) DO UPDATE SET \(counts)
            ), w4 AS (
                INSERT INTO rollup_timing AS t (push_id, \(TimingColumns.names.joined(separator: ", ")), shard)
                SELECT u.p, \(histogram.joined(separator: ", ")), $44::bigint
                FROM unnest($31::text[]) WITH ORDINALITY AS u(p, o)
                ON CONFLICT (push_id, shard) DO UPDATE SET \(TimingColumns.names.map { "\($0) = t.\($0) + excluded.\($0)" }.joined(separator: ", "))
            ), w5 AS (
                INSERT INTO rollup_version AS t (push_id, dimension, version, kind, action, total, duplicates, shard)
                SELECT *, $44::bigint FROM unnest($33::text[], $34::bigint[], $35::text[], $36::bigint[], $37::text[],
                                                 $38::bigint[], $39::bigint[])
                ON CONFLICT (push_id, dimension, version, kind, action, shard) DO UPDATE SET \(counts)
            ), w6 AS (
                INSERT INTO pending_timing AS t (push_id, clock, second, count, shard)
                SELECT *, $44::bigint FROM unnest($40::text[], $41::bigint[], $42::bigint[], $43::bigint[])
                ON CONFLICT (push_id, clock, second, shard) DO UPDATE SET count = t.count + excluded.count
            )
            SELECT pushtally_ingest_guard($45::text[], $46::text[], $47::boolean, $48::text[], $49::text[], $50::text[],
                                          $51::boolean[], $52::bigint[], $53::text[], $54::bigint[], $55::bigint)
            """
    }()

    /// The guard's arguments (see ``IngestGuardSchema``), in its parameters' order.
    struct Guard {
        var lockPushes: [String]
        var lockDevices: [String]
        var perDevice: Bool
        var keyPushes: [String]
        var keyValues: [String]
        var timedPushes: [String]
        var timedKnown: [Bool]
        var timedSent: [Int64]
        var probeDevices: [String]
        var probeFrom: [Int64]
    }

    private let bindings: PostgresBindings

    /// The statement for `receipts` (each with whether it is a retry) and their counted `rollups`, written to
    /// rollup shard `shard`, behind `guarding`'s checks.
    init(receipts: [(StoredEvent, Bool)], rollups: RollupAccumulator, shard: Int64, guarding: Guard) {
        var binds = PostgresBindings(capacity: 55)
        binds.append(receipts.map(\.0.pushID))
        binds.append(receipts.map { Int64($0.0.kind.rawValue) })
        binds.append(receipts.map(\.0.action))
        binds.append(receipts.map(\.0.receivedAt))
        binds.append(receipts.map(\.0.eventTime))
        binds.append(receipts.map(\.1))
        // Closures, not key paths: a key path applied in a loop is looked up at run time, per element.
        binds.append(NullableTextArray(receipts.map { $0.0.deviceID }))
        binds.append(NullableTextArray(receipts.map { $0.0.receiptID }))
        binds.append(NullableTextArray(receipts.map { $0.0.platform }))
        binds.append(NullableTextArray(receipts.map { $0.0.appVersion }))
        binds.append(NullableTextArray(receipts.map { $0.0.osVersion }))
        let sorted = SortedRollups(rollups)
        binds.append(sorted.pushes.map(\.key.pushID))
        binds.append(sorted.pushes.map { Int64($0.key.kind.rawValue) })
        binds.append(sorted.pushes.map(\.key.action))
        binds.append(sorted.pushes.map(\.value.total))
        binds.append(sorted.pushes.map(\.value.duplicates))
        binds.append(sorted.pushes.map(\.value.firstTime))
        binds.append(sorted.pushes.map(\.value.lastTime))
        binds.append(sorted.pushes.map(\.value.late))
        binds.append(sorted.buckets.map(\.key.push.pushID))
        binds.append(sorted.buckets.map(\.key.bucket))
        binds.append(sorted.buckets.map { Int64($0.key.push.kind.rawValue) })
        binds.append(sorted.buckets.map(\.key.push.action))
        binds.append(sorted.buckets.map(\.value.total))
        binds.append(sorted.buckets.map(\.value.duplicates))
        binds.append(sorted.times.map(\.key.bucket))
        binds.append(sorted.times.map { Int64($0.key.kind.rawValue) })
        binds.append(sorted.times.map(\.key.action))
        binds.append(sorted.times.map(\.value.total))
        binds.append(sorted.times.map(\.value.duplicates))
        binds.append(sorted.latency.map(\.key))
        binds.append(sorted.latency.flatMap(\.value.counts))
        binds.append(sorted.versions.map(\.key.push.pushID))
        binds.append(sorted.versions.map { Int64($0.key.dimension) })
        binds.append(sorted.versions.map(\.key.version))
        binds.append(sorted.versions.map { Int64($0.key.push.kind.rawValue) })
        binds.append(sorted.versions.map(\.key.push.action))
        binds.append(sorted.versions.map(\.value.total))
        binds.append(sorted.versions.map(\.value.duplicates))
        binds.append(sorted.pending.map(\.key.pushID))
        binds.append(sorted.pending.map { Int64($0.key.clock) })
        binds.append(sorted.pending.map(\.key.second))
        binds.append(sorted.pending.map(\.value))
        binds.append(shard)
        binds.append(guarding.lockPushes)
        binds.append(guarding.lockDevices)
        binds.append(guarding.perDevice)
        binds.append(guarding.keyPushes)
        binds.append(guarding.keyValues)
        binds.append(guarding.timedPushes)
        binds.append(guarding.timedKnown)
        binds.append(guarding.timedSent)
        binds.append(guarding.probeDevices)
        binds.append(guarding.probeFrom)
        binds.append(Int64(EventKind.session.rawValue))
        bindings = binds
    }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> Bool { try row.decode(Bool.self) }
}
