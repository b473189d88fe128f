/// One experiment arm of a campaign: its pushes' counts, pooled (sum over sum).
public struct VariantRow: Sendable, Hashable {
    public var variant: String
    public var pushes = 0
    public var sent: Int64 = 0
    /// Unique displays.
    public var displayed: Int64 = 0
    /// Unique opens.
    public var opened: Int64 = 0

    public init(variant: String, pushes: Int = 0, sent: Int64 = 0, displayed: Int64 = 0, opened: Int64 = 0) {
        self.variant = variant
        self.pushes = pushes
        self.sent = sent
        self.displayed = displayed
        self.opened = opened
    }

    /// `displayed / sent`; `nil` when nothing was sent. Above 1 when keyless retries inflate displays.
    public var displayRate: Double? { Funnel.ratio(displayed, sent) }
    /// `opened / displayed`; `nil` when nothing was displayed.
    public var openRate: Double? { Funnel.ratio(opened, displayed) }
}

/// The A/B report of one campaign: `GET /v1/reports/campaigns/{campaign}/variants`.
///
/// Each variant's display rate (displayed of sent) and open rate (opened of displayed) with its Wilson 95 %
/// interval, and, against the control, its lift and the p-value of a pooled two-proportion z-test
/// (``ProportionStatistics``). Pushes without a variant belong to no arm: they make no row and are counted in
/// the header's `pushes_without_variant`. The control's own row has no lift and no p-value (`null`): it is
/// what the others are compared with.
public enum VariantReport {
    /// The campaign's pushes by variant, sorted by name, and how many pushes had none.
    public static func rows(_ pushes: [PushFigures]) throws(TotalOutOfRange) -> (rows: [VariantRow], withoutVariant: Int) {
        var byVariant: [String: VariantRow] = [:]
        var withoutVariant = 0
        for push in pushes {
            guard let variant = push.attributes.variant else {
                withoutVariant += 1
                continue
            }
            try byVariant[variant, default: VariantRow(variant: variant)].add(push.funnel)
        }
        return (byVariant.values.sorted { $0.variant < $1.variant }, withoutVariant)
    }

    /// The variant the others are compared with: `requested`, else `control` when there is one, else the first
    /// by name; `nil` when there is no variant.
    /// - Throws: ``FieldError`` naming `control` when `requested` is none of `rows`' variants.
    public static func control(_ requested: String?, among rows: [VariantRow]) throws(FieldError) -> String? {
        let names = rows.map(\.variant)
        guard let requested else { return names.contains("control") ? "control" : names.first }
        guard names.contains(requested) else {
            let known = names.isEmpty ? "the campaign has no variant in this range" : "its variants are \(names.joined(separator: ", "))"
            throw FieldError("unknown_variant", "control \(requested) is no variant of the campaign: \(known)", field: "control")
        }
        return requested
    }

    /// The report as a table, its header naming the campaign, the control and the pushes left out.
    public static func table(
        campaign: String, rows: [VariantRow], control: String?, withoutVariant: Int
    ) -> ReportTable {
        let baseline = rows.first { $0.variant == control }
        let columns = { (row: VariantRow) -> [(String, ReportValue)] in
            // Compared with itself a row has nothing to say: no lift, no p-value.
            let against = row.variant == control ? nil : baseline
            let displayInterval = ProportionStatistics.wilson(row.displayed, of: row.sent)
            let openInterval = ProportionStatistics.wilson(row.opened, of: row.displayed)
            return [
                ("variant", .text(row.variant)),
                ("control", .flag(row.variant == control)),
                ("pushes", .integer(Int64(row.pushes))),
                ("sent", .integer(row.sent)),
                ("displayed", .integer(row.displayed)),
                ("display_rate", .rate(row.displayRate)),
                ("display_rate_ci_low", .rate(displayInterval?.low)),
                ("display_rate_ci_high", .rate(displayInterval?.high)),
                ("display_rate_lift", .rate(against.flatMap { ProportionStatistics.lift(row.displayRate, over: $0.displayRate) })),
                ("display_rate_p_value", .rate(against.flatMap {
                    ProportionStatistics.pooledZTestPValue(row.displayed, of: row.sent, against: $0.displayed, of: $0.sent)
                })),
                ("opened", .integer(row.opened)),
                ("open_rate", .rate(row.openRate)),
                ("open_rate_ci_low", .rate(openInterval?.low)),
                ("open_rate_ci_high", .rate(openInterval?.high)),
                ("open_rate_lift", .rate(against.flatMap { ProportionStatistics.lift(row.openRate, over: $0.openRate) })),
                ("open_rate_p_value", .rate(against.flatMap {
                    ProportionStatistics.pooledZTestPValue(row.opened, of: row.displayed, against: $0.opened, of: $0.displayed)
                })),
            ]
        }
        return ReportTable(
            name: "variants", rows: rows.map(columns), template: columns(VariantRow(variant: "")),
            header: [
                ("campaign", .text(campaign)),
                ("control", .text(control)),
                ("pushes_without_variant", .integer(Int64(withoutVariant))),
            ])
    }
}

extension VariantRow {
    mutating func add(_ funnel: Funnel) throws(TotalOutOfRange) {
        pushes += 1
        try sent.add(funnel.sent, field: "sent")
        try displayed.add(funnel.displayedUnique, field: "displayed_unique")
        try opened.add(funnel.openedUnique, field: "opened_unique")
    }
}
