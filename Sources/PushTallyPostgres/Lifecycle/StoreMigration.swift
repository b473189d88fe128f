import Foundation
import Logging
import PostgresNIO
import PushTallyCore

/// Copies a SQLite deployment into an empty PostgreSQL database: raw events (with their ids), dedupe keys,
/// rollups, the ledger, pushes and sends, tokens, import records and the database id, table by table, then
/// checks that every report reads the same from both.
public struct StoreMigration: Sendable {
    /// Tables in copy order; `healthcheck` and the migration records stay behind.
    public static let tables = [
        "meta", "pushes", "push_sends", "push_failures", "tokens", "imported_events", "dedupe",
        "rollup_push", "rollup_bucket", "rollup_timing", "pending_timing", "rollup_version",
        "ledger_push", "ledger_bucket", "ledger_timing", "ledger_pending", "ledger_version",
        "rollup_outcome", "rollup_outcome_time", "ledger_outcome", "ledger_outcome_time", "rollup_time", "ledger_time",
        "rollup_media", "rollup_media_bucket", "rollup_media_version", "ledger_media", "ledger_media_bucket",
        "ledger_media_version", "rollup_platform_bucket", "ledger_platform_bucket", "events",
        "webhooks", "alerts", "action_ids", "dimension_values", "rollup_audience", "push_send_platforms", "fcm_deliveries",
        "rollup_fcm", "legacy_spellings", "send_records", "device_states",
    ]

    /// What a copy step reports: the table, rows copied so far, and its total.
    public typealias Progress = @Sendable (_ table: String, _ copied: Int, _ total: Int) -> Void

    let source: any CopyableStore
    let target: PostgresStore
    let pageSize: Int

    package init(from source: any CopyableStore, to target: PostgresStore, pageSize: Int = 5000) {
        self.source = source
        self.target = target
        self.pageSize = pageSize
    }

    /// Refuses a target that already holds pushes, events or tokens: a copy never merges.
    public func checkTargetIsEmpty() async throws {
        guard try await target.fetch(Queries.SelectStoredRowCount()).first == 0 else {
            throw StoreError.misconfigured("\(target.location) already holds data; migrate-store copies into an empty database")
        }
    }

    /// Copies every table in one transaction, calling `progress` after each page: a copy that fails
    /// leaves the target as empty as it was, so it can simply be run again.
    public func copy(progress: @escaping Progress) async throws {
        let snapshot = try source.copySource()
        var found: [(CopyTable, [String: String])] = []
        for name in Self.tables {
            guard let table = try await snapshot.copyTable(name) else { continue }
            found.append((table, try await target.columnTypes(name)))
        }
        let tables = found
        try await target.transaction { connection in
            for (table, types) in tables {
                let name = table.name
                progress(name, 0, table.rowCount)
                var after: [CopyValue]?
                var copied = 0
                while true {
                    let rows = try await snapshot.copyPage(table, after: after, limit: pageSize)
                    guard let last = rows.last else { break }
                    try await insert(rows, into: table, types: types, on: connection)
                    copied += rows.count
                    progress(name, copied, table.rowCount)
                    after = Array(last.prefix(table.keyCount))
                }
            }
            try await connection.run(Queries.SetNextEventIDPastCopied(), logger: target.logger)
            // The copied rollups carry no day: the copied days fold from their events.
            try await DatedShards.undateStored(on: connection, logger: target.logger)
        }
        // The copied history went to the default partition (no day partition exists for the past yet). The
        // copy is complete without this: rows left there are pruned row by row instead of by the day.
        do {
            try await target.partitionDefaultRows()
        } catch {
            target.logger.warning("copied raw events stay in the default partition", metadata: ["error": "\(error)"])
        }
    }

    private func insert(_ rows: [[CopyValue]], into table: CopyTable, types: [String: String], on connection: PostgresConnection) async throws {
        let columns = table.columns
        // The target's own values win for keys it made itself (its database id is replaced, its secret check kept).
        let conflict = table.name == "meta" ? "ON CONFLICT (key) DO UPDATE SET value = excluded.value" : ""
        for query in SQLBuilder.values(
            rows, columns: columns.count, head: "INSERT INTO \(table.name) (\(columns.joined(separator: ", ")))", tail: conflict,
            bind: { row, sql in
                zip(columns, row).map { column, value in Self.bind(value, as: types[column] ?? "text", into: &sql) }
            })
        {
            try await connection.run(query, logger: target.logger)
        }
    }

    private static func bind(_ value: CopyValue, as type: String, into sql: inout SQLBuilder) -> String {
        switch (value, type) {
        case (.null, _): return sql.bind(String?.none) + "::\(type)"
        case (.integer(let integer), "boolean"): return sql.bind(integer != 0)
        case (.integer(let integer), _): return sql.bind(integer)
        case (.real(let double), "double precision"): return sql.bind(double)
        case (.real(let double), _): return sql.bind(Int64(double))
        case (.text(let text), _): return sql.bind(text)
        case (.blob(let bytes), _): return sql.bind(ByteBuffer(bytes: bytes))
        }
    }

    /// What `verify` compared, and whether every part matched.
    public struct Verification: Sendable {
        public var pushes: Int
        public var rawEvents: Int
        public var tokens: Int
        /// Names of the comparisons that differed; empty when the stores agree.
        public var mismatches: [String]
    }

    /// Reads every report's inputs from both stores and compares them.
    public func verify() async throws -> Verification {
        func asSet<T: Hashable>(_ values: [T]) -> Set<T> { Set(values) }
        var mismatches: [String] = []
        let figures = try await source.pushFigures()
        if try await target.pushFigures() != figures { mismatches.append("push figures (campaign and push reports)") }
        if asSet(try await source.bucketCounts(ReportFilter())) != asSet(try await target.bucketCounts(ReportFilter())) {
            mismatches.append("15-minute buckets (time series)")
        }
        // Each platform's buckets, and unknown's rest: the per-bucket platform rollup copied whole.
        let platforms = Set(try await source.versionCounts(ReportFilter(), dimension: .platform).map(\.version))
            .subtracting([""]).union([ReportGrouping.unknownPlatform])
        for platform in platforms.sorted()
        where asSet(try await source.bucketCounts(ReportFilter(platform: platform)))
            != asSet(try await target.bucketCounts(ReportFilter(platform: platform)))
        {
            mismatches.append("15-minute buckets of platform \(platform) (time series)")
        }
        for dimension in VersionDimension.allCases
        where asSet(try await source.versionCounts(ReportFilter(), dimension: dimension))
            != asSet(try await target.versionCounts(ReportFilter(), dimension: dimension))
        {
            mismatches.append("version counts (\(dimension))")
        }
        for dimension in VersionDimension.allCases
        where try await source.versionMedia(ReportFilter(), dimension: dimension)
            != target.versionMedia(ReportFilter(), dimension: dimension)
        {
            mismatches.append("media per version (\(dimension))")
        }
        if try await source.outcomeTotals(fromMillis: nil, toMillis: nil)
            != target.outcomeTotals(fromMillis: nil, toMillis: nil)
        {
            mismatches.append("outcome totals (attribution report)")
        }
        let everything = AudienceQuery(grouping: .day, fromMillis: nil, toMillis: nil)
        if asSet(try await source.audienceCounts(everything)) != asSet(try await target.audienceCounts(everything)) {
            mismatches.append("audience (audience report)")
        }
        let rawEvents = try await source.rawEventCount()
        if try await target.rawEventCount() != rawEvents { mismatches.append("raw event count") }
        let tokens = try await source.listTokens()
        if try await target.listTokens() != tokens { mismatches.append("tokens") }
        if try await source.databaseID() != target.databaseID() { mismatches.append("database id") }
        return Verification(pushes: figures.count, rawEvents: rawEvents, tokens: tokens.count, mismatches: mismatches)
    }
}

extension PostgresStore {
    /// Column name → type name (`bigint`, `text`, `boolean`, `bytea`) of a table.
    func columnTypes(_ table: String) async throws -> [String: String] {
        var types: [String: String] = [:]
        for (column, type) in try await fetch(Queries.SelectColumnTypes(table: table)) { types[column] = type }
        return types
    }
}
