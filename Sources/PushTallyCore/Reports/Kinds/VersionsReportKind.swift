/// `GET /v1/reports/versions`: receipt health, receipts against opens per app or OS version.
public struct VersionsReportKind: ReportKind {
    public static let declaration = ReportDeclaration(
        name: "versions", path: "/v1/reports/versions",
        parameters: ReportDeclaration.commonParameters + ["campaign", "push_id", "dimension"],
        summary: "Receipt health: receipts vs opens per app or OS version; flags extensions that do not post.",
        kind: Self.self)

    public var dimension: VersionDimension

    public init(dimension: VersionDimension) {
        self.dimension = dimension
    }

    public init(_ query: ReportQuery, pathValue: String?) throws(FieldError) {
        dimension = try query.option("dimension").map(ReportQuery.dimension) ?? .appVersion
    }

    public func ownQuery(_ request: ReportRequest) -> [(name: String, value: String)] {
        [("dimension", dimension.name)]
    }

    public func emptyTable(_ request: ReportRequest) -> ReportTable {
        ReceiptHealthReport.table([], dimension: dimension)
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        // Media outcomes are kept per app and OS version, not per platform: by platform, their columns stay
        // empty rather than piling every display's outcome onto one row.
        let media = dimension == .platform ? [:] : try await reader.versionMedia(request.filter, dimension: dimension)
        return ReceiptHealthReport.table(
            try await reader.versionCounts(request.filter, dimension: dimension), media: media, dimension: dimension)
    }
}

extension ReportSubject {
    /// Receipt health: receipts against opens per app or OS version.
    public static func versions(_ dimension: VersionDimension) -> ReportSubject {
        ReportSubject(VersionsReportKind(dimension: dimension))
    }
}

extension ReportDeclaration {
    public static var versions: ReportDeclaration { VersionsReportKind.declaration }
}
