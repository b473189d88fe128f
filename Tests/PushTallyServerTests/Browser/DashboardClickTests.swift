import Foundation
import PushTallyTestSupport
import Testing

/// The dashboard driven in Chromium as a person clicks it (selenium with Debian's chromedriver): signed in
/// through its form with a read token, each hard campaign name clicked in turn.
@Suite(.serialized) struct DashboardClickTests {
    static let script = PackageRoot.file("Tests/browser/dashboard_clicks.py").path

    /// The hard names, and `.` and `..`, which no URL path can carry (browsers drop or climb such segments,
    /// `%2E` included): the dashboard must name them in a query.
    static let names = QueryEncodingTests.hardNames + [".", ".."]

    /// The series, funnel and receipt health of each campaign show the figures its CSV downloads hold: names
    /// with spaces, `+`, `&`, `=`, `%`, `#`, CJK and emoji reach the server as the browser encodes them, and
    /// campaigns named `.` and `..` open as any other.
    /// No alert banner shows while none fires; once one fires, the next refresh shows it.
    @Test func eachHardCampaignNameShowsItsOwnFigures() async throws {
        let server = try ServerProcess(extraArguments: ["--alert-interval", "1"])
        defer { server.removeFiles() }
        try await server.start()
        try await QueryEncodingTests.seed(server, names: Self.names)
        let run = try await DashboardScript(Self.script, on: server, arguments: [server.adminToken] + Self.names)
        let output = run.output
        let results = try #require(output["campaigns"] as? [[String: Any]], "\(run.log)")
        #expect(results.count == Self.names.count, "\(run.log)")
        for (index, result) in results.enumerated() {
            let name = Self.names[index]
            let displayed = index + 1
            #expect(result["name"] as? String == name)
            #expect(result["csv_displayed_unique"] as? Int == displayed, "\(result)")
            // The drill-down lists the campaign's one push, and the page logged no error on the way.
            #expect(result["pushes"] as? [String] == ["hard-\(index)"], "\(result)")
            #expect((result["errors"] as? [String])?.isEmpty == true, "\(result)")
            // Ten sent each: the funnel shows the unique displays and the display rate the CSV holds.
            let rate = String(format: "%.1f%%", Double(displayed) * 10)
            #expect((result["funnel"] as? String)?.contains("\(displayed) (\(rate))") == true, "\(result)")
            #expect(result["series_displayed"] as? Int == displayed, "\(result)")
            #expect(result["csv_series_displayed"] as? Int == displayed, "\(result)")
            #expect(result["health_receipts"] as? Int == displayed, "\(result)")
            #expect(result["csv_health_receipts"] as? Int == displayed, "\(result)")
        }
        // The firing alert (a push sent to 100 devices, none displayed): its name, kind, value and since.
        let alerts = try #require(output["alerts"] as? [String: Any], "\(run.log)")
        #expect(alerts["banner_before"] as? Bool == false, "\(alerts)")
        #expect(alerts["title"] as? String == "Firing alerts", "\(alerts)")
        let items = try #require(alerts["items"] as? [String], "\(alerts)")
        #expect(items.count == 1, "\(alerts)")
        let item = items.first ?? ""
        #expect(item.hasPrefix("receipts stopped (alerting) (Receipts stopped) 0.0% display rate, firing since "), "\(item)")
        let since = (alerts["since"] as? [String])?.first ?? ""
        #expect(since.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z/) != nil, "\(alerts)")
        #expect(try await server.stop() == 0)
    }
}
