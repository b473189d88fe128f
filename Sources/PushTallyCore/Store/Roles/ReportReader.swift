/// Reads what reports are assembled from: rollups and registrations, never raw events. An engine only runs
/// the reads and hands their rows over; every figure is assembled here, in the core, from those rows
/// (``pushFigures(_:)``, ``campaignRows(_:by:)``), so no engine has a body of its own for a report.
public protocol ReportReader: Sendable {
    /// The clock and maturity window reports are judged by.
    var configuration: StoreConfiguration { get }
    /// `sink` fed the rows of the pushes `filter`'s scope (campaign, push id) selects, table by table in the
    /// order ``PushRowRead/reads(for:)`` gives, all read from one snapshot; the sink applies the rest of the
    /// filter.
    func readPushRows<Sink: PushRowSink & Sendable>(_ filter: ReportFilter, into sink: Sink) async throws -> Sink
    /// The names of up to `limit` campaigns with a registered push, in byte order, after `after` (from the first
    /// when `nil`): the pages of a report read a page at a time (``CampaignPager``).
    func campaignNames(after: String?, limit: Int) async throws -> [String]
    /// The push id that ends the next page of pushes nobody registered after `after` (from the first when `nil`),
    /// a page of about `rows` rollup rows; `nil` when the rest fits in one (``SQLDialect/orphanPageEnd(after:rows:)``).
    func orphanPageEnd(after: String?, rows: Int) async throws -> String?
    /// 15-minute rollup counts over the pushes `filter` selects, within its event-time range.
    func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount]
    /// Receipts and actions per app or OS version over the pushes `filter` selects.
    func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount]
    /// Unique displays by media outcome and extension time per app or OS version over the pushes `filter`
    /// selects; `""` holds the displays that named no version.
    func versionMedia(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [String: MediaOutcomes]
    /// Sessions and conversions whose event time falls in `[fromMillis, toMillis)` (to 15-minute buckets),
    /// by credit, unattributed included.
    func outcomeTotals(fromMillis: Int64?, toMillis: Int64?) async throws -> Outcomes
    /// Every registered push with an app, a collapse id and a `sent_at` that shares its app and collapse id
    /// with a push `filter`'s campaign or push id selects (every such push when it names neither), whatever
    /// its campaign: what ``Superseding`` needs to judge the selected pushes.
    func collapsePeers(_ filter: ReportFilter) async throws -> [CollapsePush]
    /// Devices with a session in the query's range by their latest notification setting, per group
    /// (``Queries/SelectAudienceCounts`` over the audience rollup).
    func audienceCounts(_ query: AudienceQuery) async throws -> [AudienceCount]
    /// Devices sent pushes in the query's window, per app and platform, by ``DarkState`` (``DeviceStateTally``
    /// over the stored device states).
    func deviceStateCounts(_ query: DeviceStateQuery) async throws -> [DeviceStateCount]
}

extension ReportReader {
    /// Every push, registered or orphan, with its figures.
    public func pushFigures() async throws -> [PushFigures] {
        try await pushFigures(ReportFilter())
    }

    /// The pushes `filter` selects with their figures (``PushFiguresAssembly`` of the store's rows), whole;
    /// with the events that named a platform beside them when `filter` names one (``supersededPushFigures(_:)``
    /// narrows).
    public func pushFigures(_ filter: ReportFilter) async throws -> [PushFigures] {
        var assembly = try await readPushRows(
            filter, into: PushFiguresAssembly(expectedPushes: filter.pushID == nil ? 1024 : 1, readsPlatforms: filter.platform != nil))
        return try assembly.takeFigures(filter)
    }

    /// Pushes with their figures, each superseded one marked with the push that replaced it at APNs, then
    /// narrowed to the filter's platform if it names one (``PushFigures/onPlatform(_:)``).
    public func supersededPushFigures(_ filter: ReportFilter) async throws -> [PushFigures] {
        let figures = try await pushFigures(filter)
        // Only registered pushes with a collapse id can be superseded: most reports need no second read.
        guard figures.contains(where: { $0.attributes.collapseID != nil }) else { return figures.onPlatform(filter.platform) }
        // Superseded before narrowing: a supersession's loss is the whole push's, kept with `unknown`.
        return Superseding.apply(Superseding.supersessions(try await collapsePeers(filter)), to: figures).onPlatform(filter.platform)
    }

    /// The campaign list's rows, summed by ``CampaignListAssembly`` as the store's rows are read, whatever the
    /// filter (a time range and a platform included), then superseded.
    public func campaignRows(_ filter: ReportFilter, by grouping: ReportGrouping?) async throws -> [CampaignRow] {
        var assembly = try await readPushRows(
            filter, into: CampaignListAssembly(filter, by: grouping, expectedPushes: filter.pushID == nil ? 1024 : 1))
        // As for the figures: only pushes with a collapse id can be superseded, most reports need no second read.
        let supersessions = assembly.needsSupersessions ? Superseding.supersessions(try await collapsePeers(filter)) : [:]
        return try assembly.rows(supersessions: supersessions)
    }
}
