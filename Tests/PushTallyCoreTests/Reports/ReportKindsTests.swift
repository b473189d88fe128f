import Foundation
import Testing

@testable import PushTallyCore

/// Each declared report reads back, through its query, as the request a client sent: the API client
/// (``ReportRequest/httpPath()``) and the routes (``ReportQuery``) read the same declaration.
@Suite struct ReportKindsTests {
    /// A query giving every parameter `report` takes a valid, non-default value.
    static func fullQuery(_ report: ReportDeclaration) -> String {
        let values = [
            "from": "2026-11-01T00:00:00Z", "to": "2026-11-08T00:00:00Z", "app": "com.example", "environment": "sandbox",
            "campaign": "a+b & c", "push_id": "p 1", "by": "push_type", "orphan": "false", "bucket": "hour",
            "tz": "Asia/Kolkata", "dimension": "os_version", "control": "B",
        ]
        // `by` is each report's own: a send attribute for campaigns, a grouping for the audience.
        let own = report == .audience ? ["by": "app_version"] : [:]
        return FormBody.encode(report.parameters.compactMap { name in (own[name] ?? values[name]).map { (name, $0) } })
    }

    @Test(arguments: ReportKinds.all)
    func aRequestReadsBackFromItsPathAndQuery(_ report: ReportDeclaration) throws {
        let sent = try ReportQuery(Self.fullQuery(report)[...], report: report).request(report, pathValue: report.pathParameter.map { _ in "新品/上架 1" })
        #expect(sent.report == report)
        let (path, items) = sent.httpPath()
        #expect(items.allSatisfy { report.takes($0.name) }, "\(report.name) sends \(items.map(\.name))")
        let matched = try #require(Self.pathValue(path, template: report.path), "\(path) is not \(report.path)")
        let query = FormBody.encode(items.map { ($0.name, $0.value ?? "") })
        let read = try ReportQuery(query[...], report: report).request(report, pathValue: matched)
        #expect(read == sent, "\(report.name): sent \(sent), read \(read)")
        #expect(read.name == report.name)
    }

    /// The path parameter's value (percent-decoded) when `path` has `template`'s shape; "" for no parameter.
    static func pathValue(_ path: String, template: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let expected = template.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == expected.count else { return nil }
        var value = ""
        for (segment, pattern) in zip(segments, expected) {
            if pattern.hasPrefix(":") {
                value = segment.removingPercentEncoding ?? ""
            } else if segment != pattern {
                return nil
            }
        }
        return value
    }

    @Test func subjectsAreTheirKindsAndOptions() {
        #expect(ReportSubject.push("p1") == .push("p1"))
        #expect(ReportSubject.push("p1") != .push("p2"))
        #expect(ReportSubject.campaign("p1") != .push("p1"))
        #expect(ReportSubject.pushes(orphan: true).declaration == .pushes)
        #expect(Set([ReportSubject.attribution, .attribution, .campaigns]).count == 2)
    }
}
