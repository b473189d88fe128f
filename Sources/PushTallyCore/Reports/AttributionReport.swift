/// Totals of what pushes caused over a time range, with what no push explains: `GET /v1/reports/attribution`.
public enum AttributionReport {
    /// One row: sessions and conversions whose event time falls in the range, by how they were credited.
    public static func table(_ outcomes: Outcomes) -> ReportTable {
        let columns = { (outcomes: Outcomes) -> [(String, ReportValue)] in
            [
                ("sessions", .integer(outcomes.sessions)),
                ("direct_opens", .integer(outcomes.directOpens)),
                ("influenced_opens", .integer(outcomes.influencedOpens)),
                ("unattributed_sessions", .integer(outcomes.unattributedSessions)),
                ("conversions", .integer(outcomes.conversions)),
                ("conversions_direct", .integer(outcomes.conversionsDirect)),
                ("conversions_influenced", .integer(outcomes.conversionsInfluenced)),
                ("unattributed_conversions", .integer(outcomes.conversionsUnattributed)),
                ("conversion_value", .money(outcomes.conversionValue, csvPrefix: "conversion_value:")),
                ("unattributed_conversion_value",
                 .money(outcomes.valueUnattributed, csvPrefix: "unattributed_conversion_value:")),
            ]
        }
        return ReportTable(name: "attribution", rows: [columns(outcomes)], template: columns(Outcomes()))
    }
}
