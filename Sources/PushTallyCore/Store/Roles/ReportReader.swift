/// Reads what reports are assembled from: rollups and registrations, never raw events.
public protocol ReportReader: Sendable {
    /// The clock and maturity window reports are judged by.
    var configuration: StoreConfiguration { get }
    /// Pushes with their figures (``PushFiguresAssembly`` from the engine's rows).
    func pushFigures(_ filter: ReportFilter) async throws -> [PushFigures]
    /// 15-minute rollup counts over the pushes `filter` selects, within its event-time range.
    func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount]
    /// Receipts and actions per app or OS version over the pushes `filter` selects.
    func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount]
    /// Sessions and conversions whose event time falls in `[fromMillis, toMillis)` (to 15-minute buckets),
    /// by credit, unattributed included.
    func outcomeTotals(fromMillis: Int64?, toMillis: Int64?) async throws -> Outcomes
}

extension ReportReader {
    /// Every push, registered or orphan, with its figures.
    public func pushFigures() async throws -> [PushFigures] {
        try await pushFigures(ReportFilter())
    }
}
