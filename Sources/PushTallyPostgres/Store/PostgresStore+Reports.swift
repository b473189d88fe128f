import PostgresNIO
import PushTallyCore

/// The report reads as ``SQLDialect`` renders and decodes them; this store only runs them.
extension PostgresStore: ReportReader {
    /// `sink` fed the rows of the pushes `filter`'s scope selects, table by table (``PushRowSink``).
    public func readPushRows<Sink: PushRowSink & Sendable>(_ filter: ReportFilter, into sink: Sink) async throws -> Sink {
        let scope = PushScope(filter)
        // One snapshot for all the reads, as SQLite reads them in one transaction: a commit between two of
        // them could otherwise show a histogram without its displays.
        return try await readSnapshot { read in
            var sink = sink
            for table in PushRowRead.reads(for: sink) {
                for row in try await read(PostgresQuery(table.statement(.postgres, scope))) {
                    try table.feed(PostgresReportRow(row), into: &sink)
                }
            }
            try await Self.readMediaRows(filter, into: &sink, read: read)
            return sink
        }
    }

    public func campaignNames(after: String?, limit: Int) async throws -> [String] {
        try await query(PostgresQuery(SQLDialect.postgres.campaignNames(after: after, limit: limit))).map {
            try PostgresReportRow($0).text(0)
        }
    }

    public func orphanPageEnd(after: String?, rows: Int) async throws -> String? {
        try await query(PostgresQuery(SQLDialect.postgres.orphanPageEnd(after: after, rows: rows))).first.map {
            try PostgresReportRow($0).text(0)
        }
    }

    public func collapsePeers(_ filter: ReportFilter) async throws -> [CollapsePush] {
        try await query(PostgresQuery(SQLDialect.postgres.collapsePeers(filter))).map {
            try ReportRowDecoding.collapsePush(PostgresReportRow($0))
        }
    }

    public func outcomeTotals(fromMillis: Int64?, toMillis: Int64?) async throws -> Outcomes {
        let query = PostgresQuery(SQLDialect.postgres.outcomeTotals(OutcomeTimeRange(fromMillis: fromMillis, toMillis: toMillis)))
        var totals = Outcomes()
        for row in try await self.query(query) { try ReportRowDecoding.addOutcome(PostgresReportRow(row), to: &totals) }
        return totals
    }

    public func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount] {
        let (counts, less) = SQLDialect.postgres.bucketCounts(filter)
        guard let less else {
            return try await query(PostgresQuery(counts)).map { try ReportRowDecoding.bucketCount(PostgresReportRow($0)) }
        }
        // One snapshot for both reads: a commit between them could otherwise take more than it added.
        return try await readSnapshot { read in
            BucketCount.subtracting(
                try await read(PostgresQuery(less)).map { try ReportRowDecoding.bucketCount(PostgresReportRow($0)) },
                from: try await read(PostgresQuery(counts)).map { try ReportRowDecoding.bucketCount(PostgresReportRow($0)) })
        }
    }

    public func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount] {
        let (named, totals) = SQLDialect.postgres.versionCounts(filter, dimension: dimension)
        return try await readSnapshot { read in
            VersionCount.completing(
                try await read(PostgresQuery(named)).map { try ReportRowDecoding.versionCount(PostgresReportRow($0)) },
                pushTotals: try await read(PostgresQuery(totals)).map { try ReportRowDecoding.pushTotal(PostgresReportRow($0)) })
        }
    }
}
