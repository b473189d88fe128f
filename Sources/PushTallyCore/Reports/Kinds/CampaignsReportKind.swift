/// `GET /v1/reports/campaigns`: one row per campaign (or per campaign and send attribute or platform, `by=`),
/// plus the orphan row.
public struct CampaignsReportKind: ReportKind {
    public static let declaration = ReportDeclaration(
        name: "campaigns", path: "/v1/reports/campaigns",
        parameters: ReportDeclaration.commonParameters + ["campaign", "by", "platform"],
        summary: "Sent vs displayed vs opened, one row per campaign.", kind: Self.self)

    public init() {}

    public init(_ query: ReportQuery, pathValue: String?) {}

    public func ownQuery(_ request: ReportRequest) -> [(name: String, value: String)] {
        request.by.map { [("by", $0.rawValue)] } ?? []
    }

    public func emptyTable(_ request: ReportRequest) -> ReportTable {
        CampaignReport.table([], maturity: Maturity(nowMillis: 0), by: request.by)
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        CampaignReport.table(try await reader.campaignRows(request.filter, by: request.by), maturity: maturity, by: request.by)
    }
}

extension ReportSubject {
    /// One row per campaign (plus the orphan row).
    public static var campaigns: ReportSubject { ReportSubject(CampaignsReportKind()) }
}

extension ReportDeclaration {
    public static var campaigns: ReportDeclaration { CampaignsReportKind.declaration }
}
