/// `GET /v1/reports/campaigns/{campaign}/variants` (or `/v1/reports/variants?campaign=`): a campaign's A/B
/// variants compared with a control.
public struct VariantsReportKind: ReportKind {
    public static let declaration = ReportDeclaration(
        name: "variants", path: "/v1/reports/campaigns/:campaign/variants", pathParameter: "campaign",
        queryAddressedPath: "/v1/reports/variants", parameters: ReportDeclaration.commonParameters + ["control"],
        summary: "A campaign's A/B variants: display and open rates with 95% intervals, lift and p-value against the control.",
        kind: Self.self)

    public var campaign: String
    /// `nil`: `control` if there is such a variant, else the first by name.
    public var control: String?

    public init(campaign: String, control: String?) {
        self.campaign = campaign
        self.control = control
    }

    public init(_ query: ReportQuery, pathValue: String?) {
        campaign = pathValue ?? ""
        control = query.option("control").map(CanonicalText.nfc)
    }

    public var pathValue: String? { campaign }

    public func ownQuery(_ request: ReportRequest) -> [(name: String, value: String)] {
        control.map { [("control", $0)] } ?? []
    }

    public func emptyTable(_ request: ReportRequest) -> ReportTable {
        VariantReport.table(campaign: campaign, rows: [], control: nil, withoutVariant: 0)
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        var filter = request.filter
        filter.campaign = campaign
        let pushes = try await reader.pushFigures(filter)
        if pushes.isEmpty { try await reader.requireRegistered(campaign: campaign) }
        let (rows, withoutVariant) = try VariantReport.rows(pushes)
        let chosen = try VariantReport.control(control, among: rows)
        return VariantReport.table(campaign: campaign, rows: rows, control: chosen, withoutVariant: withoutVariant)
    }
}

extension ReportSubject {
    /// One row per A/B variant of a campaign, compared with `control` (`nil`: the default control).
    public static func variants(_ campaign: String, control: String?) -> ReportSubject {
        ReportSubject(VariantsReportKind(campaign: campaign, control: control))
    }
}

extension ReportDeclaration {
    public static var variants: ReportDeclaration { VariantsReportKind.declaration }
}
