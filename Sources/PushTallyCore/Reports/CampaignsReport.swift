/// One campaign's funnel, or the row of orphan receipts (pushes nobody registered yet).
public struct CampaignRow: Sendable, Hashable {
    /// `nil` on the orphan row.
    public var campaign: String?
    public var funnel: Funnel
    /// Push ids in this row (for the orphan row, the unregistered ids to chase).
    public var pushIDs: [String]
    /// The latest `sent_at` of the row's pushes; `nil` while any push has none.
    public var latestSentAtMillis: Int64?
    /// With a grouping, the attribute value the row's pushes share (``ReportGrouping``); `nil` without one.
    public var attribute: ReportValue? = nil

    public var isOrphan: Bool { campaign == nil }
}

/// When numbers become final: `final_at = sent_at + window`, judged at `nowMillis`.
public struct Maturity: Sendable, Hashable {
    public var nowMillis: Int64
    public var windowMillis: Int64

    public init(nowMillis: Int64, windowMillis: Int64 = StoreConfiguration.defaultMaturityWindowMillis) {
        self.nowMillis = nowMillis
        self.windowMillis = windowMillis
    }

    func columns(latestSentAt: Int64?) -> [(String, ReportValue)] {
        let finalAt = latestSentAt.map { $0 + windowMillis }
        return [
            ("final_at", .text(finalAt.map(Timestamp.iso8601(millis:)))),
            ("final", .flag(finalAt.map { $0 <= nowMillis } ?? false)),
        ]
    }
}

/// The campaigns list (`/v1/reports/campaigns`, ``CampaignsReportKind``): sent vs displayed vs opened, pooled
/// over each campaign's pushes, a row per campaign. One campaign's pushes are ``PushReport``'s.
public enum CampaignsReport {
    /// The report as a table: the contract's columns in order, then extras, then actions. With a grouping, its
    /// attribute's column follows `campaign`.
    public static func table(_ rows: [CampaignRow], maturity: Maturity, by grouping: ReportGrouping? = nil) -> ReportTable {
        let columns = { (row: CampaignRow) -> [(String, ReportValue)] in
            [("campaign", .text(row.campaign))]
                + (grouping.map { [($0.rawValue, row.attribute ?? $0.cell(nil))] } ?? [])
                + funnelColumns(row.funnel)
                + maturity.columns(latestSentAt: row.latestSentAtMillis) + [
                    ("orphan", .flag(row.isOrphan)),
                ] + outcomeColumns(row.funnel) + [
                    // New fixed columns go after the others (docs/API.md: CSV readers may go by position).
                    ("superseded_loss", .integer(row.funnel.supersededLoss)),
                    ("superseded_pushes", .integer(Int64(row.funnel.supersededPushes))),
                ] + row.funnel.media.columns + row.funnel.fcm.columns(displayedUnique: row.funnel.displayedUnique) + [
                    ("failed_reasons", .counts(row.funnel.failedByReason, csvPrefix: nil)),
                    ("actions", .counts(row.funnel.customActions, csvPrefix: "action:")),
                ]
        }
        return ReportTable(
            name: "campaigns", rows: rows.map(columns),
            template: columns(CampaignRow(campaign: "", funnel: Funnel(), pushIDs: [], attribute: grouping?.cell(nil))))
    }

    /// The funnel's columns under their public names (shared by every report that shows a funnel).
    public static func funnelColumns(_ funnel: Funnel) -> [(String, ReportValue)] {
        var columns: [(String, ReportValue)] = [
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
        for (column, reason) in Funnel.commonFailureReasons {
            columns.append((column, .integer(funnel.failedByReason[reason] ?? 0)))
        }
        columns += [
            ("failed_other", .integer(funnel.failedOther)),
            ("unexplained_loss", .integer(funnel.unexplainedLoss)),
            ("time_to_display_p50", .seconds(funnel.latency.quantileSeconds(0.5))),
            ("time_to_display_p90", .seconds(funnel.latency.quantileSeconds(0.9))),
            ("time_to_display_p99", .seconds(funnel.latency.quantileSeconds(0.99))),
            ("display_rate_1h", .rate(funnel.displayRate(within: 3600))),
            ("display_rate_24h", .rate(funnel.displayRate(within: 86400))),
            ("display_rate_7d", .rate(funnel.displayRate(within: 604_800))),
            ("late", .integer(funnel.late)),
            // JSON only: the histogram itself, keyed by each bucket's upper bound in seconds ("604800+" beyond).
            ("time_to_display_histogram", .counts(funnel.latency.countsByUpperBound, csvPrefix: nil)),
        ]
        return columns
    }

    /// What the pushes caused (sessions and conversions credited to them): fixed columns added after the
    /// original ones, as every new column is (docs/API.md: CSV readers may go by position).
    public static func outcomeColumns(_ funnel: Funnel) -> [(String, ReportValue)] {
        [
            ("influenced_opens", .integer(funnel.outcomes.influencedOpens)),
            ("influenced_open_rate", .rate(funnel.influencedOpenRate)),
            ("direct_opens", .integer(funnel.outcomes.directOpens)),
            ("conversions", .integer(funnel.outcomes.conversions)),
            ("conversions_direct", .integer(funnel.outcomes.conversionsDirect)),
            ("conversions_influenced", .integer(funnel.outcomes.conversionsInfluenced)),
            // JSON: {"USD": 9.99}; CSV: one `conversion_value:USD` column per currency present.
            ("conversion_value", .money(funnel.outcomes.conversionValue, csvPrefix: "conversion_value:")),
        ]
    }
}

extension CampaignRow {
    /// Lists a push whose counts are already in ``funnel``, keeping ``latestSentAtMillis``.
    mutating func add(pushID: String, sentAtMillis: Int64?) {
        let first = pushIDs.isEmpty
        pushIDs.append(pushID)
        if let sentAt = sentAtMillis, first || latestSentAtMillis != nil {
            latestSentAtMillis = max(latestSentAtMillis ?? sentAt, sentAt)
        } else {
            latestSentAtMillis = nil
        }
    }
}
