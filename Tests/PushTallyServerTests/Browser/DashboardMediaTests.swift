import Foundation
import PushTallyTestSupport
import Testing

/// Rich media as the dashboard shows it in Chromium (selenium with Debian's chromedriver), on each store: the
/// campaign whose images time out for a third of its displays reads a rich rate of two thirds in its row, its
/// funnel, its pushes and the receipt health table.
@Suite(.serialized) struct DashboardMediaTests {
    static let script = PackageRoot.file("Tests/browser/media_clicks.py").path

    @Test(arguments: StoreKind.allCases) func aThirdTimedOutShowsTwoThirdsRich(kind: StoreKind) async throws {
        let store = try await MediaReportLiveTests.seeded(kind)
        let server = store.server
        let run = try await DashboardScript(Self.script, on: server, database: store.database, arguments: ["rich"])
        let output = run.output

        let row = try #require(output["campaign_row"] as? [String: String], "\(run.log)")
        #expect(row["Rich rate"] == "66.7%" && row["Media timed out"] == "3", "\(row)")
        // Eleven unique displays of twelve sent; six of the nine that asked for media shown with it.
        let funnel = try #require(output["funnel"] as? [String: String], "\(run.log)")
        #expect(funnel["Displayed"] == "11 (91.7%)", "\(funnel)")
        #expect(funnel["With media"] == "6 (66.7% rich)" && funnel["Media timed out"] == "3", "\(funnel)")
        let push = try #require((output["pushes"] as? [[String: String]])?.first, "\(run.log)")
        #expect(push["Rich rate"] == "66.7%", "\(push)")
        #expect(push["p90 extension time"]?.hasSuffix(" s") == true, "\(push)")
        let health = try #require(output["health"] as? [[String: String]], "\(run.log)")
        let release = try #require(health.first { $0["Version"] == "5.0" }, "\(health)")
        #expect(release["Rich rate"] == "66.7%" && release["Media timed out"] == "3", "\(release)")
        #expect(health.first { $0["Version"] == "5.1" }?["Rich rate"] == "–", "\(health)")
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }
}
