/// The campaign list's rows as they are made: one per campaign (the orphans' `nil` among them), value of the
/// grouping and, when the list is split by platform, platform. The first step of ``CampaignListAssembly``
/// (which row a count goes to) and its last (the rows in the order the report lists them).
struct CampaignRowTable: Sendable {
    /// `campaign` `nil`: an orphan row. Names compare byte for byte (``ExactText``), as storage keys them.
    private struct Key: Hashable, Sendable {
        let campaign: ExactText?
        let attribute: ReportValue?
        let platform: ExactText?
    }

    private let grouping: ReportGrouping?
    /// Whether a row is also keyed by the platform its events named.
    let splitsPlatforms: Bool
    private var rows: [CampaignRow] = []
    /// Each row's platform when split (``rows``' order).
    private var platforms: [String?] = []
    private var index: [Key: Int] = [:]

    init(grouping: ReportGrouping?, splitsPlatforms: Bool) {
        self.grouping = grouping
        self.splitsPlatforms = splitsPlatforms
    }

    /// A row by the index ``row(campaign:attributes:platform:)`` gave.
    subscript(row: Int) -> CampaignRow {
        get { rows[row] }
        _modify { yield &rows[row] }
    }

    /// The index of the row of `campaign` (`nil`: the orphans) and the grouping's value of `attributes`, of
    /// `platform` when split (the `unknown` row by default), made at its first push.
    mutating func row(campaign: String?, attributes: SendAttributes?, platform: String = ReportGrouping.unknownPlatform) -> Int {
        row(campaign: campaign, attribute: campaign == nil ? grouping?.cell(nil) : grouping?.cell(attributes), platform: platform)
    }

    /// The row of `platform` beside row `home`: the same campaign and grouping value.
    mutating func row(besides home: Int, platform: String) -> Int {
        row(campaign: rows[home].campaign, attribute: rows[home].attribute, platform: platform)
    }

    /// The index of the row of `campaign`, `attribute` (the platform's, by platform) and `platform`.
    private mutating func row(campaign: String?, attribute: ReportValue?, platform: String) -> Int {
        let attribute = grouping == .platform ? .text(platform) : attribute
        let key = Key(campaign: campaign.map(ExactText.init), attribute: attribute, platform: splitsPlatforms ? ExactText(platform) : nil)
        if let row = index[key] { return row }
        rows.append(CampaignRow(campaign: campaign, funnel: Funnel(), pushIDs: [], attribute: attribute))
        platforms.append(key.platform?.text)
        index[key] = rows.count - 1
        return rows.count - 1
    }

    /// `body` given the funnels of rows `home` and `target` (two rows) at once, to move counts between them.
    mutating func withFunnels(_ home: Int, _ target: Int, _ body: (inout Funnel, inout Funnel) -> Void) {
        rows.withUnsafeMutableBufferPointer { rows in body(&rows[home].funnel, &rows[target].funnel) }
    }

    /// The rows a platform filter keeps (`unknown`: the events that named none; `nil`: every row), sorted by
    /// name then grouping value, the orphans' rows last.
    func listed(platform: String?) -> [CampaignRow] {
        let kept = rows.indices.filter { platform == nil || platforms[$0] == platform }
        var campaigns = kept.filter { rows[$0].campaign != nil }.map { rows[$0] }
        campaigns.sort {
            $0.campaign! != $1.campaign! ? $0.campaign! < $1.campaign! : ReportGrouping.precedes($0.attribute, $1.attribute)
        }
        let orphans = kept.filter { rows[$0].campaign == nil }.map { rows[$0] }
        return campaigns + orphans.sorted { ReportGrouping.precedes($0.attribute, $1.attribute) }
    }
}
