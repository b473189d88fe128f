import GRDB
import PushTallyCore

/// The report reads as ``SQLDialect`` renders and decodes them; this store only runs them.
extension SQLiteStore: ReportReader {
    /// `sink` fed the rows of the pushes `filter`'s scope selects, in one read transaction (``PushRowSink``).
    public func readPushRows<Sink: PushRowSink & Sendable>(_ filter: ReportFilter, into sink: Sink) async throws -> Sink {
        try await read { db in
            var sink = sink
            try Self.readPushRows(filter, into: &sink, in: db)
            return sink
        }
    }

    /// Feeds `sink` the rows of the pushes `filter`'s scope selects, table by table (``PushRowSink``).
    static func readPushRows<Sink: PushRowSink>(_ filter: ReportFilter, into sink: inout Sink, in db: Database) throws {
        let scope = PushScope(filter)
        for read in PushRowRead.reads(for: sink) {
            try RawColumns.forEachRow(read.statement(.sqlite, scope), in: db) { row in try read.feed(row, into: &sink) }
        }
        try readMediaRows(filter, into: &sink, in: db)
    }

    public func campaignNames(after: String?, limit: Int) async throws -> [String] {
        try await read { db in try RawColumns.map(SQLDialect.sqlite.campaignNames(after: after, limit: limit), in: db) { $0.text(0) } }
    }

    public func orphanPageEnd(after: String?, rows: Int) async throws -> String? {
        try await read { db in try RawColumns.map(SQLDialect.sqlite.orphanPageEnd(after: after, rows: rows), in: db) { $0.text(0) }.first }
    }

    public func collapsePeers(_ filter: ReportFilter) async throws -> [CollapsePush] {
        try await read { db in try RawColumns.map(SQLDialect.sqlite.collapsePeers(filter), in: db, ReportRowDecoding.collapsePush) }
    }

    public func outcomeTotals(fromMillis: Int64?, toMillis: Int64?) async throws -> Outcomes {
        let statement = SQLDialect.sqlite.outcomeTotals(OutcomeTimeRange(fromMillis: fromMillis, toMillis: toMillis))
        return try await read { db in
            var totals = Outcomes()
            try RawColumns.forEachRow(statement, in: db) { try ReportRowDecoding.addOutcome($0, to: &totals) }
            return totals
        }
    }

    public func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount] {
        let (counts, less) = SQLDialect.sqlite.bucketCounts(filter)
        return try await read { db in
            BucketCount.subtracting(
                try less.map { try RawColumns.map($0, in: db, ReportRowDecoding.bucketCount) } ?? [],
                from: try RawColumns.map(counts, in: db, ReportRowDecoding.bucketCount))
        }
    }

    public func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount] {
        let (named, totals) = SQLDialect.sqlite.versionCounts(filter, dimension: dimension)
        return try await read { db in
            VersionCount.completing(
                try RawColumns.map(named, in: db, ReportRowDecoding.versionCount),
                pushTotals: try RawColumns.map(totals, in: db, ReportRowDecoding.pushTotal))
        }
    }
}
