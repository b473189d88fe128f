/// `GET /v1/reports/campaigns/{campaign}`: one row per push of a campaign (the drill-down).
public struct CampaignReportKind: ReportKind {
    public static let declaration = ReportDeclaration(
        name: "campaign", path: "/v1/reports/campaigns/:campaign", pathParameter: "campaign",
        parameters: ReportDeclaration.commonParameters + ["platform"],
        summary: "One row per push of a campaign (drill-down).", kind: Self.self)

    public var campaign: String

    public init(campaign: String) {
        self.campaign = campaign
    }

    public init(_ query: ReportQuery, pathValue: String?) {
        campaign = pathValue ?? ""
    }

    public var pathValue: String? { campaign }

    public func emptyTable(_ request: ReportRequest) -> ReportTable {
        PushReport.table([], maturity: Maturity(nowMillis: 0))
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        var filter = request.filter
        filter.campaign = campaign
        let pushes = try await reader.supersededPushFigures(filter)
        if pushes.isEmpty { try await reader.requireRegistered(campaign: campaign) }
        return PushReport.table(pushes, maturity: maturity)
    }
}

extension ReportSubject {
    /// One row per push of a campaign (drill-down).
    public static func campaign(_ name: String) -> ReportSubject { ReportSubject(CampaignReportKind(campaign: name)) }
}

extension ReportDeclaration {
    public static var campaign: ReportDeclaration { CampaignReportKind.declaration }
}
