/// `GET /v1/reports/pushes`: one row per push, registered or orphan.
public struct PushesReportKind: ReportKind {
    public static let declaration = ReportDeclaration(
        name: "pushes", path: "/v1/reports/pushes",
        parameters: ReportDeclaration.commonParameters + ["campaign", "orphan", "platform"],
        summary: "One row per push; --orphan lists unregistered push ids.", kind: Self.self)

    /// Only unregistered (`true`) or registered (`false`) pushes; `nil`: both.
    public var orphan: Bool?

    public init(orphan: Bool?) {
        self.orphan = orphan
    }

    public init(_ query: ReportQuery, pathValue: String?) throws(FieldError) {
        orphan = try query.flag("orphan")
    }

    public func ownQuery(_ request: ReportRequest) -> [(name: String, value: String)] {
        orphan.map { [("orphan", String($0))] } ?? []
    }

    public func emptyTable(_ request: ReportRequest) -> ReportTable {
        PushReport.table([], maturity: Maturity(nowMillis: 0))
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        let pushes = try await reader.supersededPushFigures(request.filter).filter { orphan == nil || $0.isOrphan == orphan }
        return PushReport.table(pushes, maturity: maturity)
    }
}

extension ReportSubject {
    /// One row per push; `orphan` keeps only unregistered (true) or registered (false) pushes.
    public static func pushes(orphan: Bool?) -> ReportSubject { ReportSubject(PushesReportKind(orphan: orphan)) }
}

extension ReportDeclaration {
    public static var pushes: ReportDeclaration { PushesReportKind.declaration }
}
