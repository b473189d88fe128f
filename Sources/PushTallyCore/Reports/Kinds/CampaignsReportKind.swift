/// `GET /v1/reports/campaigns`: one row per campaign (or per campaign and send attribute or platform, `by=`),
/// plus the orphan row.
public struct CampaignsReportKind: ReportKind {
    public static let declaration = ReportDeclaration(
        name: "campaigns", path: "/v1/reports/campaigns",
        parameters: ReportDeclaration.commonParameters + ["campaign", "by", "platform"],
        summary: "Sent vs displayed vs opened, one row per campaign.", kind: Self.self)

    /// A row per campaign and value of this send attribute, or per platform (`by=`); `nil`: a row per campaign.
    public var grouping: ReportGrouping?

    public init(grouping: ReportGrouping? = nil) {
        self.grouping = grouping
    }

    public init(_ query: ReportQuery, pathValue: String?) throws(FieldError) {
        grouping = try query.option("by").map(ReportQuery.grouping)
    }

    public func ownQuery(_ request: ReportRequest) -> [(name: String, value: String)] {
        grouping.map { [("by", $0.rawValue)] } ?? []
    }

    public func emptyTable(_ request: ReportRequest) -> ReportTable {
        CampaignsReport.table([], maturity: Maturity(nowMillis: 0), by: grouping)
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        CampaignsReport.table(try await reader.campaignRows(request.filter, by: grouping), maturity: maturity, by: grouping)
    }

    /// A page of campaigns at a time: the report's rows grow with the campaigns anyone registers.
    public func pages(_ request: ReportRequest) -> (any ReportPages)? {
        CampaignPager(request.filter, by: grouping)
    }
}

extension ReportSubject {
    /// One row per campaign (plus the orphan row).
    public static var campaigns: ReportSubject { ReportSubject(CampaignsReportKind()) }

    /// One row per campaign and value of `grouping` (plus the orphan rows).
    public static func campaigns(by grouping: ReportGrouping?) -> ReportSubject { ReportSubject(CampaignsReportKind(grouping: grouping)) }
}

extension ReportDeclaration {
    public static var campaigns: ReportDeclaration { CampaignsReportKind.declaration }
}
