/// Per-push rows: a campaign's drill-down, one push's report, or the orphan push ids to chase.
public enum PushReport {
    public static func table(_ pushes: [PushFigures], maturity: Maturity) -> ReportTable {
        let columns = { (push: PushFigures) in Self.columns(push, maturity: maturity) }
        return ReportTable(
            name: "pushes", rows: pushes.map(columns),
            template: columns(PushFigures(pushID: "", firstEventMillis: nil, funnel: Funnel())))
    }

    static func columns(_ push: PushFigures, maturity: Maturity) -> [(String, ReportValue)] {
        [
            ("push_id", .text(push.pushID)),
            ("campaign", .text(push.campaign)),
            ("title", .text(push.title)),
            ("sent_at", .text(push.sentAtMillis.map(Timestamp.iso8601(millis:)))),
            ("app", .text(push.app)),
            ("environment", .text(push.environment)),
        ] + CampaignsReport.funnelColumns(push.funnel).filter { $0.0 != "pushes" }
            + maturity.columns(latestSentAt: push.sentAtMillis) + [
            ("orphan", .flag(push.isOrphan)),
        ] + CampaignsReport.outcomeColumns(push.funnel) + supersessionColumns(push)
            + sendAttributeColumns(push.attributes) + push.funnel.media.columns
            + push.funnel.fcm.columns(displayedUnique: push.funnel.displayedUnique) + [
            ("failed_reasons", .counts(push.funnel.failedByReason, csvPrefix: nil)),
            ("actions", .counts(push.funnel.customActions, csvPrefix: "action:")),
        ]
    }

    /// The later push that replaced this one at APNs (same app and collapse id, sent before this one expired),
    /// after the other fixed columns as new columns go (docs/API.md: CSV readers may go by position).
    static func supersessionColumns(_ push: PushFigures) -> [(String, ReportValue)] {
        [
            ("superseded_by", .text(push.supersession?.supersededBy)),
            // Whole seconds, as every duration in reports: pushes a few hundred ms apart read 0.
            ("superseded_after_s", .seconds(push.supersession.map { $0.afterMillis / 1000 })),
            ("superseded_loss", .integer(push.funnel.supersededLoss)),
        ]
    }

    /// The variant and APNs attributes a registration gave; `expiration` is a time, or `0` (APNs does not store it).
    static func sendAttributeColumns(_ attributes: SendAttributes) -> [(String, ReportValue)] {
        [
            ("variant", .text(attributes.variant)),
            ("collapse_id", .text(attributes.collapseID)),
            ("priority", .optionalInteger(attributes.priority.map(Int64.init))),
            ("push_type", .text(attributes.pushType)),
            ("expiration", .text(attributes.expirationMillis.map { $0 == 0 ? "0" : Timestamp.iso8601(millis: $0) })),
        ]
    }
}
