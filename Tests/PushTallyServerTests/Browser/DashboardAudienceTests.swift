import Foundation
import PushTallyTestSupport
import Testing

/// The Audience card as the dashboard shows it in Chromium (selenium with Debian's chromedriver), signed in
/// through its form with a read token: the opt-in rate and the split for the page's date range.
@Suite(.serialized) struct DashboardAudienceTests {
    static let script = PackageRoot.file("Tests/browser/audience_clicks.py").path

    @Test func showsTheOptInRateAndTheSplit() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        // Four devices a few minutes ago: `a` allowed notifications then turned them off, `b` allows them
        // provisionally, `c` allowed them, `d` never says.
        let now = Int(Date().timeIntervalSince1970)
        let sessions = #"""
            [{"device_id":"a","session_id":"a1","ts":\#(now - 600),"notification_permission":"authorized"},
             {"device_id":"a","session_id":"a2","ts":\#(now - 300),"notification_permission":"denied"},
             {"device_id":"b","session_id":"b1","ts":\#(now - 400),"notification_permission":"provisional"},
             {"device_id":"c","session_id":"c1","ts":\#(now - 400),"notification_permission":"authorized"},
             {"device_id":"d","session_id":"d1","ts":\#(now - 400)}]
            """#
        let answer = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/sessions"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(sessions.utf8))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        let run = try await DashboardScript(Self.script, on: server)
        let output = run.output

        let card = try #require(output["card"] as? [String: Any], "\(run.log)")
        #expect(card["opt_in"] as? String == "66.7%" && card["devices"] as? String == "4", "\(card)")
        #expect(card["rows"] as? [[String: String]] == [
            ["Setting": "Authorized", "Devices": "1", "Share": "33.3%"],
            ["Setting": "Provisional", "Devices": "1", "Share": "33.3%"],
            ["Setting": "Ephemeral", "Devices": "0", "Share": "0.0%"],
            ["Setting": "Denied", "Devices": "1", "Share": "33.3%"],
            ["Setting": "Not asked yet", "Devices": "0", "Share": "0.0%"],
            ["Setting": "Unknown (the app did not say)", "Devices": "1", "Share": "25.0%"],
        ], "\(card)")
        #expect(card["empty_shown"] as? Bool == false, "\(card)")

        // The page's date range bounds the card by event time: a day in 2020 holds none of it.
        let empty = try #require(output["empty_range"] as? [String: Any], "\(run.log)")
        #expect(empty["empty_shown"] as? Bool == true && empty["opt_in"] as? String == "–", "\(empty)")
        #expect((empty["rows"] as? [[String: String]])?.allSatisfy { $0["Devices"] == "0" && $0["Share"] == "–" } == true, "\(empty)")
        #expect(try await server.stop() == 0)
    }
}
