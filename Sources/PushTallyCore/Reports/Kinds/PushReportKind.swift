/// `GET /v1/reports/pushes/{push_id}`: one push.
public struct PushReportKind: ReportKind {
    // One push is addressed by its id: a filter could only hide it, but a platform narrows its events.
    public static let declaration = ReportDeclaration(
        name: "push", path: "/v1/reports/pushes/:push_id", pathParameter: "push_id", parameters: ["format", "bom", "platform"],
        summary: "One push's funnel, time to display and actions.", kind: Self.self)

    public var pushID: String

    public init(pushID: String) {
        self.pushID = pushID
    }

    public init(_ query: ReportQuery, pathValue: String?) {
        pushID = pathValue ?? ""
    }

    public var pathValue: String? { pushID }

    public func emptyTable(_ request: ReportRequest) -> ReportTable {
        PushReport.table([], maturity: Maturity(nowMillis: 0))
    }

    public func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable {
        let platform = request.filter.platform
        let pushes = try await reader.supersededPushFigures(ReportFilter(pushID: pushID, platform: platform))
        // Narrowed to a platform none of its events named, a known push has no row rather than being unknown.
        if pushes.isEmpty {
            guard platform != nil, try await !reader.pushFigures(ReportFilter(pushID: pushID)).isEmpty else {
                throw ReportNotFound(description: "no push \(pushID) is registered and no receipt names it", field: "push_id")
            }
        }
        return PushReport.table(pushes, maturity: maturity)
    }
}

extension ReportSubject {
    /// One push.
    public static func push(_ id: String) -> ReportSubject { ReportSubject(PushReportKind(pushID: id)) }
}

extension ReportDeclaration {
    public static var push: ReportDeclaration { PushReportKind.declaration }
}
