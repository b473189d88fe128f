import Logging
import PostgresNIO
import PushTallyCore

/// Live rollup rows on PostgreSQL are keyed by the UTC day their events were received as well as by collector:
/// a commit whose events were all received on day D writes its rows to shard ``of(day:shard:)`` instead of the
/// collector's plain shard (0..<16). Reports add up every shard of a key, so they read the same numbers.
///
/// Why: everything counted from the events of day D then sits in D's rows, so retiring D's partition folds
/// those rows into the ledger with one grouped `INSERT … SELECT` per rollup table, however many events D
/// held, instead of reading and recounting every event (``fold(days:on:logger:)``). The rows are then moved
/// into the plain shards (``compact(before:on:logger:)``), so rows per push stay bounded by the days still
/// kept.
///
/// A day folds from its rows only while they are known to hold exactly what its events count: from
/// `rollups_dated_from` (meta) on, unless it is listed in `undated_days`. A day is listed when some of its
/// counts went to a plain shard (a commit spanning days, a credit moved on an event of another day) or when
/// some of its events were already folded row by row (a straddling day, a forgotten device); those days, and
/// those counted before dating began, fold from their events (``RetiredFold``).
enum DatedShards {
    /// Plain shards are below this; a day's shards are 16 consecutive values above it.
    static let base: Int64 = 1 << 40
    static let collectorShards: Int64 = 16
    static let datedFromKey = "rollups_dated_from"

    /// The shard of collector shard `shard` for events received on `day`.
    static func of(day: Int64, shard: Int64) -> Int64 { base + day * collectorShards + shard }

    /// The shards of `day`: `lower..<upper`.
    static func range(day: Int64) -> (lower: Int64, upper: Int64) {
        (of(day: day, shard: 0), of(day: day + 1, shard: 0))
    }

    /// The schema version of ``migration``.
    static let version = 17

    /// The migration that starts dating: days from the one after it (every day when nothing was counted yet).
    static let migration: [String] = [
        "CREATE TABLE undated_days (day BIGINT PRIMARY KEY)",
        """
        INSERT INTO meta (key, value)
        SELECT '\(datedFromKey)', CASE
            WHEN EXISTS (SELECT 1 FROM events) OR EXISTS (SELECT 1 FROM rollup_push) OR EXISTS (SELECT 1 FROM rollup_outcome)
            THEN (GREATEST(
                floor(extract(epoch FROM clock_timestamp()) * 1000 / \(EventPartitions.dayMillis))::bigint,
                floor(COALESCE((SELECT max(received_at) FROM events), 0)::numeric / \(EventPartitions.dayMillis))::bigint) + 1)::text
            ELSE '\(Int64.min)' END
        ON CONFLICT (key) DO NOTHING
        """,
    ]

    /// The day of each millisecond time, once.
    static func days<Times: Sequence>(_ times: Times) -> Set<Int64> where Times.Element == Int64 {
        Set(times.lazy.map(EventPartitions.day(ofMillis:)))
    }

    /// The shard a commit writes to: its day's when all its counts belong to one day, else the plain one (and
    /// the days involved are listed as undated, in the caller's transaction).
    static func shard(
        for days: Set<Int64>, shard: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int64 {
        if days.count == 1, let day = days.first { return of(day: day, shard: shard) }
        try await markUndated(days, on: connection, logger: logger)
        return shard
    }

    /// Lists `days` as undated (their rows no longer hold exactly what their events count); a no-op before the
    /// migration that dates rows.
    static func markUndated(_ days: Set<Int64>, on connection: PostgresConnection, logger: Logger) async throws {
        guard !days.isEmpty, try await hasSchema(on: connection, logger: logger) else { return }
        try await connection.run(Queries.MarkDaysUndated(days: Array(days)), logger: logger)
    }

    /// Whether the migration that dates rows was applied.
    static func hasSchema(on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        try await connection.fetch(Queries.SelectUndatedDaysExists(), logger: logger).first ?? false
    }

    /// Whether `day`'s rows hold exactly what its events count.
    static func isDated(_ day: Int64, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        guard try await hasSchema(on: connection, logger: logger) else { return false }
        // `NULL` without the meta key: a nullable flag, which rows decoded by position do not offer.
        let rows = try await connection.run(
            PostgresQuery(Queries.SelectDayIsDated(day: day, datedFromKey: datedFromKey)), logger: logger)
        return try rows.first?.decode(Bool?.self) ?? false
    }

    /// Declares every day dated, after a rebuild counted every raw event into its day's rows.
    static func resetDated(on connection: PostgresConnection, logger: Logger) async throws {
        guard try await hasSchema(on: connection, logger: logger) else { return }
        try await connection.run(Queries.ClearUndatedDays(), logger: logger)
        try await connection.run(Queries.DateEveryDay(datedFromKey: datedFromKey), logger: logger)
    }

    /// Dates only the days after every raw event stored: rows copied in whole carry no day.
    static func undateStored(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            Queries.UndateStoredDays(datedFromKey: datedFromKey, dayMillis: EventPartitions.dayMillis), logger: logger)
    }

    /// Adds the rows of `days` of every rollup table to the ledger, summed per key (`least`/`greatest` columns
    /// by their own merge), in the caller's transaction: one pass over each table however many days.
    static func fold(days: Set<Int64>, on connection: PostgresConnection, logger: Logger) async throws {
        guard !days.isEmpty else { return }
        for table in RollupTable.allCases {
            try await connection.run(Queries.FoldDatedRows(table: table, days: days), logger: logger)
        }
    }

    /// Moves the dated rows of every day before `day` into their collectors' plain shards, one statement per
    /// table (atomic by itself, so sums never change and no lock is held across tables). Tables keyed by time
    /// bucket are left: a bucket's rows are of the day it falls in, so moving them would merge none.
    static func compact(before day: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        for table in RollupTable.allCases where !table.key.contains(where: { $0.name == "bucket" }) {
            try await connection.run(Queries.CompactDatedRows(table: table, day: day), logger: logger)
        }
    }

    /// Each value column summed by its merge.
    static func aggregates(_ table: RollupTable) -> String {
        table.values.map { column in
            switch column.merge {
            case .add: "SUM(\(column.name))::bigint"
            case .least: "MIN(\(column.name))"
            case .greatest: "MAX(\(column.name))"
            }
        }.joined(separator: ", ")
    }
}
