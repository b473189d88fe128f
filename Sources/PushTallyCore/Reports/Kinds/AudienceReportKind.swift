/// `GET /v1/reports/audience`: devices with a session in the range by their latest notification setting, and
/// the opt-in rate, over every app or a row per day, app or app version (`by=`).
public struct AudienceReportKind: ReportKind {
    // Sessions name no push, campaign or environment, so the report takes no such filter.
    public static let declaration = ReportDeclaration(
        name: "audience", path: "/v1/reports/audience", parameters: ["from", "to", "by", "format", "bom"],
        summary: "Devices with a session by their latest notification setting, and the opt-in rate; by day, app or app version.",
        kind: Self.self)

    public var grouping: AudienceGrouping?

    public init(grouping: AudienceGrouping?) {
        self.grouping = grouping
    }

    public init(_ query: ReportQuery, pathValue: String?) throws(FieldError) {
        grouping = try query.option("by", as: AudienceGrouping.self)
    }

    public func ownQuery(_ request: ReportRequest) -> [(name: String, value: String)] {
        grouping.map { [("by", $0.rawValue)] } ?? []
    }

    public func emptyTable(_ request: ReportRequest) -> ReportTable {
        AudienceReport.table([], grouping: grouping)
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        let query = AudienceQuery(grouping: grouping, fromMillis: request.filter.fromMillis, toMillis: request.filter.toMillis)
        return AudienceReport.table(try await reader.audienceCounts(query), grouping: grouping)
    }
}

extension ReportSubject {
    /// Devices by their latest notification setting, in one row or a row per `grouping`'s value.
    public static func audience(_ grouping: AudienceGrouping?) -> ReportSubject {
        ReportSubject(AudienceReportKind(grouping: grouping))
    }
}

extension ReportDeclaration {
    public static var audience: ReportDeclaration { AudienceReportKind.declaration }
}
