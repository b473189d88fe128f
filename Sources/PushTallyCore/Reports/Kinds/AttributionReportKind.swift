/// `GET /v1/reports/attribution`: sessions and conversions by credit, unattributed included, by event time.
public struct AttributionReportKind: ReportKind {
    // Totals by event time: unattributed sessions belong to no push, campaign or app.
    public static let declaration = ReportDeclaration(
        name: "attribution", path: "/v1/reports/attribution", parameters: ["from", "to", "format", "bom"],
        summary: "Sessions and conversions by credit (direct, influenced, unattributed) and their value, by event time.",
        kind: Self.self)

    public init() {}

    public init(_ query: ReportQuery, pathValue: String?) {}

    public func emptyTable(_ request: ReportRequest) -> ReportTable {
        AttributionReport.table(Outcomes())
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        let totals = try await reader.outcomeTotals(fromMillis: request.filter.fromMillis, toMillis: request.filter.toMillis)
        try totals.checkRange()
        return AttributionReport.table(totals)
    }
}

extension ReportSubject {
    /// Sessions and conversions by credit, unattributed included, by their event time (`from`, `to`).
    public static var attribution: ReportSubject { ReportSubject(AttributionReportKind()) }
}

extension ReportDeclaration {
    public static var attribution: ReportDeclaration { AttributionReportKind.declaration }
}
