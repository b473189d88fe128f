import GRDB
import PushTallyCore

/// The report reads as ``SQLDialect`` renders and decodes them; this store only runs them.
extension SQLiteStore: ReportReader {
    /// Every push matching `filter`, registered or orphan, with counts from the rollups (never raw events).
    public func pushFigures(_ filter: ReportFilter) async throws -> [PushFigures] {
        try await read { db in try Self.pushFigures(filter, in: db) }
    }

    /// The campaign list's rows, summed as the rows are read (``CampaignListAssembly``).
    public func campaignRows(_ filter: ReportFilter, by grouping: ReportGrouping?) async throws -> [CampaignRow] {
        try await summedCampaignRows(filter, by: grouping) { assembly in
            try await read { db in
                var assembly = assembly
                try Self.readPushRows(filter, into: &assembly, in: db)
                return assembly
            }
        }
    }

    static func pushFigures(_ filter: ReportFilter, in db: Database) throws -> [PushFigures] {
        var assembly = PushFiguresAssembly(expectedPushes: filter.pushID == nil ? 1024 : 1, readsPlatforms: filter.platform != nil)
        try readPushRows(filter, into: &assembly, in: db)
        return try assembly.takeFigures(filter)
    }

    /// Feeds `assembly` the rows of the pushes `filter`'s scope selects, table by table (``PushRowSink``).
    static func readPushRows<Sink: PushRowSink>(_ filter: ReportFilter, into assembly: inout Sink, in db: Database) throws {
        let scope = PushScope(filter)
        for read in PushRowRead.reads(for: assembly) {
            try RawColumns.forEachRow(read.statement(.sqlite, scope), in: db) { row in try read.feed(row, into: &assembly) }
        }
        try readMediaRows(filter, into: &assembly, in: db)
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
