import PushTallyCore

extension CampaignsReport {
    /// The campaign rows of figures a test already holds, grouped by campaign (and by `grouping`'s value within
    /// one), sorted by name then value, orphans last: ``CampaignListAssembly`` given each push's figures whole,
    /// the recount a report's rows (``ReportReader/campaignRows(_:by:)``, which sums a store's rows) must equal.
    public static func rows(_ pushes: [PushFigures], by grouping: ReportGrouping? = nil) throws(TotalOutOfRange) -> [CampaignRow] {
        var assembly = CampaignListAssembly(ReportFilter(), by: grouping, expectedPushes: pushes.count)
        for push in pushes { assembly.add(push) }
        return try assembly.rows()
    }
}
