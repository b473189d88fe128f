import Foundation
import PushTallyTestSupport
import Testing

/// The dashboard driven in Chromium as a person clicks it (selenium with Debian's chromedriver): signed in
/// through its form with a read token, each hard campaign name clicked in turn.
@Suite(.serialized) struct DashboardClickTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("browser/dashboard_clicks.py").path

    /// The series, funnel and receipt health of each campaign show the figures its CSV downloads hold: names
    /// with spaces, `+`, `&`, `=`, `%`, `#`, CJK and emoji reach the server as the browser encodes them.
    @Test func eachHardCampaignNameShowsItsOwnFigures() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try server.start()
        try await QueryEncodingTests.seed(server)
        let created = try runPushtally(["keys", "create", "--role", "read", "--database", server.databasePath])
        #expect(created.status == 0, "\(created.stderr)")
        let readToken = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let run = try runProcess("/usr/bin/env", ["python3", Self.script, server.baseURL.absoluteString, readToken] + QueryEncodingTests.hardNames)
        #expect(run.status == 0, "\(run.output)")
        let jsonLine = run.output.split(separator: "\n").last { $0.hasPrefix("[") }.map(String.init) ?? "[]"
        let results = try #require(try JSONSerialization.jsonObject(with: Data(jsonLine.utf8)) as? [[String: Any]])
        #expect(results.count == QueryEncodingTests.hardNames.count, "\(run.output)")
        for (index, result) in results.enumerated() {
            let name = QueryEncodingTests.hardNames[index]
            let displayed = index + 1
            #expect(result["name"] as? String == name)
            #expect(result["csv_displayed_unique"] as? Int == displayed, "\(result)")
            // Ten sent each: the funnel shows the unique displays and the display rate the CSV holds.
            let rate = String(format: "%.1f%%", Double(displayed) * 10)
            #expect((result["funnel"] as? String)?.contains("\(displayed) (\(rate))") == true, "\(result)")
            #expect(result["series_displayed"] as? Int == displayed, "\(result)")
            #expect(result["csv_series_displayed"] as? Int == displayed, "\(result)")
            #expect(result["health_receipts"] as? Int == displayed, "\(result)")
            #expect(result["csv_health_receipts"] as? Int == displayed, "\(result)")
        }
        #expect(try server.stop() == 0)
    }
}
