import Logging
import PostgresNIO
import PushTallyCore

/// A one-statement group commit of receipts (displays and actions, the bulk of ingest) as a prepared
/// statement: every raw row and rollup row travels as a column array that `unnest` turns back into rows, so
/// the text is the same whatever the batch. PostgreSQL parses and plans it once per connection instead of
/// once per commit, as a text that varied with the batch would need, and the collector
/// binds a fixed list of arrays instead of building a statement of a placeholder per value.
///
/// It does what ``PostgresOneStatementCommit``'s built statement does: the `pushtally_ingest_guard` call (`g`)
/// runs first, because every data-modifying clause reads its answer before its first row (an order the
/// statement's data flow fixes, unlike the order of its `WITH` clauses, which PostgreSQL leaves unspecified);
/// it takes the rollup shard's lock (``RollupShardLockSchema``), so the order of the clauses among
/// themselves does not matter. Each table's rows go in ``SortedRollups`` order (arrays keep their order
/// through `unnest`).
///
/// The statement comes in the ``ReceiptCommitShape``s: one without the clauses of the wide tables a commit
/// has no rows for. PostgreSQL sets up every data-modifying clause of a statement on each execution, its
/// projections and `ON CONFLICT` updates column by column, whether or not a row arrives; the media and
/// time-to-display tables hold most of the statement's columns (their histograms), and most commits touch
/// neither.
/// PostgreSQL's alone: SQLite binds no arrays and plans nothing per connection, so it binds a row at a time.
struct ReceiptCommitStatement<Shape: ReceiptCommitShaped>: PostgresPreparedStatement {
    typealias Row = Bool

    static var name: String { ReceiptCommitShape.names[Shape.shape.index] }
    static var sql: String { ReceiptCommitShape.texts[Shape.shape.index] }

    private let bindings: PostgresBindings

    /// The statement with `bindings` made by ``ReceiptCommit/bind(receipts:rollups:shard:guarding:)`` for `Shape`.
    init(_ bindings: PostgresBindings) {
        self.bindings = bindings
    }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> Bool { try row.decode(Bool.self) }
}

/// A shape of ``ReceiptCommitStatement``, as a type: postgres-nio names and finds a prepared statement by its type.
protocol ReceiptCommitShaped: Sendable {
    static var shape: ReceiptCommitShape { get }
}

/// Which of the wide rollup tables a receipt commit writes (see ``ReceiptCommitStatement``).
struct ReceiptCommitShape: Sendable {
    /// `rollup_timing`: receipts of pushes whose `sent_at` is known.
    var timing: Bool
    /// `rollup_media`, `rollup_media_bucket`, `rollup_media_version`: receipts that report a media attachment.
    var media: Bool

    /// The shape of a commit of `rollups`.
    init(_ rollups: SortedRollups) {
        timing = !rollups.latency.isEmpty
        media = !(rollups.media.isEmpty && rollups.mediaBuckets.isEmpty && rollups.mediaVersions.isEmpty)
    }

    init(timing: Bool, media: Bool) {
        (self.timing, self.media) = (timing, media)
    }

    /// Its place in ``all``: one bit per optional group.
    var index: Int { (timing ? 1 : 0) + (media ? 2 : 0) }

    static let all = (0..<4).map { ReceiptCommitShape(timing: $0 & 1 != 0, media: $0 & 2 != 0) }
    /// Each shape's prepared statement name and text, rendered once, by ``index``.
    static let names = all.map { "pushtally_receipt_commit_v6\($0.timing ? "_timed" : "")\($0.media ? "_media" : "")" }
    static let texts = all.map(\.sql)

    /// The statement's text: the raw rows and upserts are the shared ones (``SQLDialect``), each fed by `unnest`
    /// over column arrays instead of a `VALUES` list; the parameters count on from `$1` in binding order
    /// (``ReceiptCommit/bind(receipts:rollups:shard:guarding:)``).
    var sql: String {
        var parameters = UnnestParameters()
        func arrays(_ types: [String]) -> String { parameters.arrays(types) }
        let events = arrays(EventColumns.receipt.map(\.type.arrayElement))
        let upserts = PostgresRollupWriter.Upserts.rollups
        func keyed(_ table: RollupTable) -> String { parameters.arrays(for: table) }
        let (push, bucket, time) = (keyed(.push), keyed(.bucket), keyed(.time))
        let timingRows: (pushes: String, counts: Int)? = timing
            ? (arrays(RollupTable.timing.key.map(\.type.arrayElement)), parameters.next()) : nil
        let (version, pending) = (keyed(.version), keyed(.pending))
        // The media rollups: key columns as arrays, every value of a row in one flat array (one per histogram bucket).
        func flat(_ table: RollupTable) -> (keys: String, values: String) {
            let keys = arrays(table.key.map { $0.type == .text ? "text" : "bigint" })
            let values = arrays(["bigint"])
            let names = table.key.indices.map { "k\($0)" }
            let stride = table.values.count
            let columns = names.map { "u.\($0)" } + table.values.indices.map { "(\(values))[(u.o - 1) * \(stride) + \($0 + 1)]" }
            return ("unnest(\(keys)) WITH ORDINALITY AS u(\(names.joined(separator: ", ")), o)", columns.joined(separator: ", "))
        }
        let media = self.media ? [RollupTable.media, .mediaBucket, .mediaVersion].map(flat) : []
        let platformBucket = keyed(.platformBucket)
        let shard = "$\(parameters.next())::bigint"
        let guardCasts = ReceiptCommit.guardArguments.map { "$\(parameters.next())::\($0.type)" }
        let gate = SQLBuilder.gate
        func rows(_ upsert: RollupUpsert, _ arrays: String) -> String {
            "\(upsert.head)\n    SELECT *, \(shard) FROM unnest(\(arrays)) \(gate)\n    \(upsert.conflict)"
        }
        func flatRows(_ upsert: RollupUpsert, _ rows: (keys: String, values: String)) -> String {
            "\(upsert.head)\n    SELECT \(rows.values), \(shard) FROM \(rows.keys) \(gate)\n    \(upsert.conflict)"
        }
        var clauses = [
            "\(SQLDialect.eventInsert(EventColumns.receipt)) SELECT * FROM unnest(\(events)) \(gate)",
            rows(upserts.push, push), rows(upserts.bucket, bucket), rows(upserts.time, time),
        ]
        if let timingRows {
            let histogram = TimingColumns.names.indices.map { index in
                "($\(timingRows.counts)::bigint[])[(u.o - 1) * \(TimingColumns.count) + \(index + 1)]"
            }
            clauses.append(
                """
                \(upserts.timing.head)
                    SELECT u.p, \(histogram.joined(separator: ", ")), \(shard)
                    FROM unnest(\(timingRows.pushes)) WITH ORDINALITY AS u(p, o) \(gate)
                    \(upserts.timing.conflict)
                """)
        }
        clauses += [rows(upserts.version, version), rows(upserts.pending, pending)]
        if self.media {
            clauses += [flatRows(upserts.media, media[0]), flatRows(upserts.mediaBucket, media[1]), flatRows(upserts.mediaVersion, media[2])]
        }
        clauses.append(rows(upserts.platformBucket, platformBucket))
        let guardCall = "pushtally_ingest_guard(\(guardCasts.joined(separator: ", ")))"
        let withs = clauses.enumerated().map { ", w\($0.offset) AS (\n    \($0.element)\n)" }.joined()
        return "WITH \(SQLBuilder.guardName) AS MATERIALIZED (SELECT \(guardCall) AS ok)\(withs)\nSELECT ok FROM \(SQLBuilder.guardName)"
    }
}

/// What every shape of ``ReceiptCommitStatement`` shares: the guard's arguments and the bindings.
enum ReceiptCommit {
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
        /// The collector shard whose lock the commit takes (the one its dated shard is drawn from).
        var rollupShard: Int64
    }

    /// The guard's arguments in its parameters' order, each with its SQL type and its value: the text's casts
    /// and the binds both walk this one list.
    static let guardArguments: [(type: String, bind: @Sendable (Guard, inout PostgresBindings) -> Void)] = [
        ("text[]", { $1.append($0.lockPushes) }),
        ("text[]", { $1.append($0.lockDevices) }),
        ("boolean", { $1.append($0.perDevice) }),
        ("text[]", { $1.append($0.keyPushes) }),
        ("text[]", { $1.append($0.keyValues) }),
        ("text[]", { $1.append($0.timedPushes) }),
        ("boolean[]", { $1.append($0.timedKnown) }),
        ("bigint[]", { $1.append($0.timedSent) }),
        ("text[]", { $1.append($0.probeDevices) }),
        ("bigint[]", { $1.append($0.probeFrom) }),
        ("bigint", { $1.append(Int64(EventKind.session.rawValue)) }),
        ("bigint", { $1.append($0.rollupShard) }),
    ]

    /// The shape and bindings of the statement for `receipts` (each with whether it is a retry) and their
    /// counted `rollups`, written to rollup shard `shard`, behind `guarding`'s checks.
    static func bind(
        receipts: [(StoredEvent, Bool)], rollups: RollupAccumulator, shard: Int64, guarding: Guard
    ) -> (ReceiptCommitShape, PostgresBindings) {
        var binds = PostgresBindings(capacity: 64)
        binds.appendEventColumns(EventColumns.receipt, of: receipts.map { ($0.0, $0.1, nil) })
        let sorted = SortedRollups(rollups)
        let shape = ReceiptCommitShape(sorted)
        let fields = PostgresRollupWriter.Fields.self
        // Each table's key columns, then its values, in the order the text numbered them (``sql``): keys by
        // their declaration (``RollupTable/key``), values by their table's fields, flat counts last.
        binds.appendKeys(of: sorted.pushes, .push)
        binds.appendValues(of: sorted.pushes, fields.push)
        binds.appendKeys(of: sorted.buckets, .bucket)
        binds.appendValues(of: sorted.buckets, fields.bucket)
        binds.appendKeys(of: sorted.times, .time)
        binds.appendValues(of: sorted.times, fields.time)
        if shape.timing {
            binds.appendKeys(of: sorted.latency, .timing)
            binds.append(sorted.latency.flatMap(\.value.counts))
        }
        binds.appendKeys(of: sorted.versions, .version)
        binds.appendValues(of: sorted.versions, fields.version)
        binds.appendKeys(of: sorted.pending, .pending)
        binds.append(sorted.pending.map(\.value))
        if shape.media {
            binds.appendKeys(of: sorted.media, .media)
            binds.append(sorted.media.flatMap { $0.value.counts + $0.value.extensionTime.counts })
            binds.appendKeys(of: sorted.mediaBuckets, .mediaBucket)
            binds.append(sorted.mediaBuckets.flatMap(\.value.counts))
            binds.appendKeys(of: sorted.mediaVersions, .mediaVersion)
            binds.append(sorted.mediaVersions.flatMap { $0.value.counts + $0.value.extensionTime.counts })
        }
        binds.appendKeys(of: sorted.platformBuckets, .platformBucket)
        binds.appendValues(of: sorted.platformBuckets, fields.platformBucket)
        binds.append(shard)
        for argument in Self.guardArguments { argument.bind(guarding, &binds) }
        return (shape, binds)
    }
}

/// The four shapes as types (``ReceiptCommitShaped``).
enum ReceiptCommitLean: ReceiptCommitShaped { static let shape = ReceiptCommitShape(timing: false, media: false) }
enum ReceiptCommitTimed: ReceiptCommitShaped { static let shape = ReceiptCommitShape(timing: true, media: false) }
enum ReceiptCommitMedia: ReceiptCommitShaped { static let shape = ReceiptCommitShape(timing: false, media: true) }
enum ReceiptCommitFull: ReceiptCommitShaped { static let shape = ReceiptCommitShape(timing: true, media: true) }

extension PostgresConnection {
    /// Runs the receipt commit of `shape` with `bindings` to its end.
    func runReceiptCommit(_ shape: ReceiptCommitShape, _ bindings: PostgresBindings, logger: Logger) async throws {
        switch (shape.timing, shape.media) {
        case (false, false): try await runToEnd(ReceiptCommitStatement<ReceiptCommitLean>(bindings), logger: logger)
        case (true, false): try await runToEnd(ReceiptCommitStatement<ReceiptCommitTimed>(bindings), logger: logger)
        case (false, true): try await runToEnd(ReceiptCommitStatement<ReceiptCommitMedia>(bindings), logger: logger)
        case (true, true): try await runToEnd(ReceiptCommitStatement<ReceiptCommitFull>(bindings), logger: logger)
        }
    }

    private func runToEnd<Statement: PostgresPreparedStatement>(_ statement: Statement, logger: Logger) async throws {
        try ensureOpen()
        for try await _ in try await execute(statement, logger: logger) {}
    }
}
