/// The campaigns report read a page of campaigns at a time, so that what it holds is a page's, not the whole
/// report's: each page's rows are ``CampaignListAssembly``'s sums of the reads of that page's pushes alone
/// (``ReportPage``), in the order the whole report lists them (campaigns by name in byte order, then the rows of
/// pushes nobody registered). A report naming a campaign or a push is one page.
///
/// Each page is read in a snapshot of its own, so every row adds up to a recount of its campaign at its read;
/// a campaign whose first push is registered while a long report is read is listed only if its name comes
/// after the pages already read.
public struct CampaignPager: ReportPages {
    /// Campaigns per page: a page's rows and its pushes' figures are what a report holds at once.
    public static let defaultCampaignsPerPage = 1000
    /// `rollup_push` rows per page of pushes nobody registered.
    public static let defaultOrphanRowsPerPage = 20_000

    private enum Step: Sendable {
        case campaigns(after: String?)
        case orphans(after: String?)
        case done
    }

    public let filter: ReportFilter
    public let grouping: ReportGrouping?
    public let campaignsPerPage: Int
    public let orphanRowsPerPage: Int
    private var step = Step.campaigns(after: nil)
    /// The orphan rows of the orphan pages read so far, summed (one per value of the grouping).
    private var orphanRows: [CampaignRow] = []

    public init(
        _ filter: ReportFilter, by grouping: ReportGrouping?, campaignsPerPage: Int = Self.defaultCampaignsPerPage,
        orphanRowsPerPage: Int = Self.defaultOrphanRowsPerPage
    ) {
        self.filter = filter
        self.grouping = grouping
        self.campaignsPerPage = max(1, campaignsPerPage)
        self.orphanRowsPerPage = max(1, orphanRowsPerPage)
    }

    /// Whether every page has been read.
    public var isDone: Bool {
        if case .done = step { return true }
        return false
    }

    /// The rows of the next page (none when the filter leaves every push of the page out, and none for the
    /// orphan pages before the last, whose sums come with it), or `nil` once every page has been read.
    public mutating func nextRows(from reader: some ReportReader) async throws -> [CampaignRow]? {
        var page = filter
        switch step {
        case .done:
            return nil
        case _ where filter.pushID != nil || filter.campaign != nil:
            step = .done
        case .campaigns(let after):
            let names = try await reader.campaignNames(after: after, limit: campaignsPerPage)
            guard let first = names.first, let last = names.last else {
                step = .orphans(after: nil)
                return try await nextRows(from: reader)
            }
            step = names.count < campaignsPerPage ? .orphans(after: nil) : .campaigns(after: last)
            page.page = .campaigns(first: first, last: last)
        case .orphans(let after):
            let end = try await reader.orphanPageEnd(after: after, rows: orphanRowsPerPage)
            page.page = .orphans(after: after, through: end)
            try add(orphans: try await reader.campaignRows(page, by: grouping))
            guard end == nil else {
                step = .orphans(after: end)
                return []
            }
            step = .done
            defer { orphanRows = [] }
            return orphanRows.sorted { ReportGrouping.precedes($0.attribute, $1.attribute) }
        }
        return try await reader.campaignRows(page, by: grouping)
    }

    /// Sums a page's orphan rows into those of the pages before it, row by row of the same grouping value.
    private mutating func add(orphans rows: [CampaignRow]) throws(TotalOutOfRange) {
        for row in rows {
            guard let index = orphanRows.firstIndex(where: { $0.attribute == row.attribute }) else {
                orphanRows.append(CampaignRow(campaign: nil, funnel: row.funnel, pushIDs: [], attribute: row.attribute))
                continue
            }
            orphanRows[index].funnel.add(row.funnel)
            try orphanRows[index].funnel.checkRange()
        }
    }

    public mutating func next(from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable? {
        try await nextRows(from: reader).map { CampaignsReport.table($0, maturity: maturity, by: grouping) }
    }
}
