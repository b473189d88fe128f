/// One campaign's funnel, or the row of orphan receipts (pushes nobody registered yet).
public struct CampaignRow: Sendable, Hashable {
    /// `nil` on the orphan row.
    public var campaign: String?
    public var funnel: Funnel
    /// Push ids in this row (for the orphan row, the unregistered ids to chase).
    public var pushIDs: [String]

    public var isOrphan: Bool { campaign == nil }
}

/// The per-campaign report: sent vs displayed vs opened, pooled over each campaign's pushes.
public enum CampaignReport {
    /// Groups pushes by campaign, sorted by name; orphans, if any, come last in one row.
    public static func rows(_ pushes: [PushFigures]) -> [CampaignRow] {
        var byCampaign: [String: CampaignRow] = [:]
        var orphans = CampaignRow(campaign: nil, funnel: Funnel(), pushIDs: [])
        for push in pushes {
            if let campaign = push.campaign {
                byCampaign[campaign, default: CampaignRow(campaign: campaign, funnel: Funnel(), pushIDs: [])]
                    .append(push)
            } else {
                orphans.append(push)
            }
        }
        var rows = byCampaign.values.sorted { $0.campaign! < $1.campaign! }
        if !orphans.pushIDs.isEmpty { rows.append(orphans) }
        return rows
    }

    /// The report as a table: the contract's columns in order, then extras, then actions.
    public static func table(_ rows: [CampaignRow]) -> ReportTable {
        ReportTable(
            name: "campaigns", rows: rows.map(columns),
            template: columns(CampaignRow(campaign: "", funnel: Funnel(), pushIDs: [])))
    }

    static func columns(_ row: CampaignRow) -> [(String, ReportValue)] {
        [("campaign", .text(row.campaign))] + funnelColumns(row.funnel) + [
            ("orphan", .flag(row.isOrphan)),
            ("failed_reasons", .counts(row.funnel.failedByReason, csvPrefix: nil)),
            ("actions", .counts(row.funnel.customActions, csvPrefix: "action:")),
        ]
    }

    /// The funnel's columns under their public names (shared by every report that shows a funnel).
    public static func funnelColumns(_ funnel: Funnel) -> [(String, ReportValue)] {
        [
            ("pushes", .integer(Int64(funnel.pushes))),
            ("sent", .integer(funnel.sent)),
            ("failed", .integer(funnel.failed)),
            ("displayed", .integer(funnel.displayed)),
            ("duplicates", .integer(funnel.duplicates)),
            ("displayed_unique", .integer(funnel.displayedUnique)),
            ("display_rate", .rate(funnel.displayRate)),
            ("opened", .integer(funnel.opened)),
            ("opened_unique", .integer(funnel.openedUnique)),
            ("open_rate", .rate(funnel.openRate)),
            ("dismissed", .integer(funnel.dismissed)),
            ("targeted", .integer(funnel.targeted)),
        ]
    }
}

extension CampaignRow {
    mutating func append(_ push: PushFigures) {
        funnel.add(push.funnel)
        pushIDs.append(push.pushID)
    }
}
