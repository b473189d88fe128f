/// Reads what reports are assembled from: rollups and registrations, never raw events.
public protocol ReportReader: Sendable {
    /// The clock and maturity window reports are judged by.
    var configuration: StoreConfiguration { get }
    /// Pushes with their figures (``PushFiguresAssembly`` from the engine's rows), whole; with the events that
    /// named a platform beside them when `filter` names one (``ReportReader/supersededPushFigures(_:)`` narrows).
    func pushFigures(_ filter: ReportFilter) async throws -> [PushFigures]
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
    /// The campaign list's rows (``CampaignListAssembly``): given ``supersededPushFigures(_:)`` whole, or summed
    /// straight from a store's rows (``summedCampaignRows(_:by:read:)``).
    func campaignRows(_ filter: ReportFilter, by grouping: ReportGrouping?) async throws -> [CampaignRow]
    /// Devices with a session in the query's range by their latest notification setting, per group
    /// (``SQLDialect/audienceQuery(_:placeholder:)`` over the audience rollup).
    func audienceCounts(_ query: AudienceQuery) async throws -> [AudienceCount]
}

extension ReportReader {
    /// Every push, registered or orphan, with its figures.
    public func pushFigures() async throws -> [PushFigures] {
        try await pushFigures(ReportFilter())
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

    /// The campaign list's rows from every push's figures.
    public func campaignRows(_ filter: ReportFilter, by grouping: ReportGrouping?) async throws -> [CampaignRow] {
        try CampaignReport.rows(try await supersededPushFigures(filter), by: grouping)
    }

    /// The campaign list's rows summed by `read`, which feeds the assembly it is given the engine's rows (as it
    /// does for ``pushFigures(_:)``), then superseded; a filter the assembly does not cover takes the figures.
    package func summedCampaignRows(
        _ filter: ReportFilter, by grouping: ReportGrouping?,
        read: (CampaignListAssembly) async throws -> CampaignListAssembly
    ) async throws -> [CampaignRow] {
        var only: Set<String>?
        var covered = filter
        if !CampaignListAssembly.covers(filter) {
            var picking = filter
            picking.platform = nil
            let figures = try await supersededPushFigures(picking)
            guard grouping == .platform || filter.platform != nil else { return try CampaignReport.rows(figures, by: grouping) }
            // Platform counts are kept per push, not per time: the range picks the pushes, as it does without a
            // split, and their rows are then split as a report without a range splits them.
            only = Set(figures.map(\.pushID))
            (covered.fromMillis, covered.toMillis) = (nil, nil)
        }
        var assembly = try await read(
            CampaignListAssembly(covered, by: grouping, only: only, expectedPushes: filter.pushID == nil ? 1024 : 1))
        // As for the figures: only pushes with a collapse id can be superseded, most reports need no second read.
        let supersessions = assembly.needsSupersessions ? Superseding.supersessions(try await collapsePeers(filter)) : [:]
        return try assembly.rows(supersessions: supersessions)
    }
}
