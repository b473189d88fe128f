import Foundation
import PushTallyTestSupport
import Testing

/// What pushes caused, as the dashboard shows it in Chromium (selenium with Debian's chromedriver), signed in
/// through its form with a read token: the Attribution panel, the campaign's row and its drill-down, and the
/// panel again for a date range with nothing in it.
@Suite(.serialized) struct DashboardAttributionTests {
    static let script = PackageRoot.file("Tests/browser/attribution_clicks.py").path

    /// Three devices a few minutes ago: `a` saw push p1 and later opened the app and bought (influenced open and
    /// conversion, USD 9.99); `b` saw p1, tapped it, opened the app and bought (direct, EUR 5); `c` never got a
    /// push (unattributed session and conversion, GBP 2.5); `d` saw p2 of campaign "autumn" and bought (influenced,
    /// JPY 100).
    static func seed(_ server: ServerProcess) async throws {
        let now = Int(Date().timeIntervalSince1970)
        let admin = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        let open = ["Content-Type": "application/json"]
        let posts: [(String, [String: String], String)] = [
            ("v1/pushes/p1", admin, #"{"campaign":"spring sale","sent":10}"#),
            ("v1/pushes/p2", admin, #"{"campaign":"autumn","sent":5}"#),
            ("v1/receipts", open, #"[{"push_id":"p1","device_id":"a","ts":\#(now - 600)},{"push_id":"p1","device_id":"b","ts":\#(now - 600)},{"push_id":"p2","device_id":"d","ts":\#(now - 600)}]"#),
            ("v1/actions", open, #"{"push_id":"p1","device_id":"b","action":"open","ts":\#(now - 540)}"#),
            ("v1/sessions", open, #"[{"device_id":"a","session_id":"s-a","ts":\#(now - 300)},{"device_id":"b","session_id":"s-b","ts":\#(now - 480)},{"device_id":"c","session_id":"s-c","ts":\#(now - 300)}]"#),
            ("v1/conversions", open, #"[{"device_id":"a","event":"purchase","value":9.99,"currency":"USD","conversion_id":"o-a","ts":\#(now - 240)},{"device_id":"b","event":"purchase","value":"5","currency":"EUR","conversion_id":"o-b","ts":\#(now - 420)},{"device_id":"c","event":"purchase","value":2.5,"currency":"GBP","conversion_id":"o-c","ts":\#(now - 240)},{"device_id":"d","event":"purchase","value":100,"currency":"JPY","ts":\#(now - 240)}]"#),
        ]
        for (path, headers, body) in posts {
            let method = path.hasPrefix("v1/pushes/") ? "PUT" : "POST"
            let answer = try await httpRequest(server.baseURL.appendingPathComponent(path), method: method, headers: headers, body: Data(body.utf8))
            #expect((200..<300).contains(answer.status), "\(path): \(String(decoding: answer.body, as: UTF8.self))")
        }
    }

    @Test func showsSessionsConversionsAndTheirValues() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        try await Self.seed(server)
        let run = try await DashboardScript(Self.script, on: server, arguments: ["spring sale"])
        let output = run.output

        let panel = try #require(output["panel"] as? [String: Any], "\(run.log)")
        let rows = try #require(panel["rows"] as? [[String: String]], "\(panel)")
        #expect(rows == [
            ["": "Sessions", "Total": "3", "Direct": "1", "Influenced": "1", "Unattributed": "1"],
            ["": "Conversions", "Total": "4", "Direct": "1", "Influenced": "2", "Unattributed": "1"],
        ], "\(panel)")
        #expect(panel["value"] as? String == "EUR 5 · JPY 100 · USD 9.99", "\(panel)")
        #expect(panel["unattributed_value"] as? String == "GBP 2.5", "\(panel)")
        #expect(panel["empty_shown"] as? Bool == false, "\(panel)")

        // The campaign's row: 1 influenced open of 2 unique displays; b's session is a direct open, not added.
        let row = try #require(output["campaign_row"] as? [String: String], "\(run.log)")
        #expect(row["Displayed"] == "2" && row["Opened"] == "1", "\(row)")
        #expect(row["Influenced opens"] == "1" && row["Influenced rate"] == "50.0%", "\(row)")
        #expect(row["Conversions"] == "2" && row["Direct conv."] == "1" && row["Influenced conv."] == "1", "\(row)")
        #expect(row["Conversion value"] == "EUR 5 · USD 9.99", "\(row)")
        // Sorted by sent at first (spring, autumn); by value, amounts in different currencies sort by their text.
        #expect(output["by_value"] as? [[String]] == [["autumn", "spring sale"], ["spring sale", "autumn"]], "\(run.log)")

        let detail = try #require(output["detail"] as? [String: Any], "\(run.log)")
        #expect(detail["outcomes"] as? [String: String] == [
            "Direct opens": "1", "Infl. opens": "1 (50.0%)", "Direct conv.": "1", "Infl. conv.": "1",
        ], "\(detail)")
        #expect(detail["value"] as? String == "EUR 5 · USD 9.99", "\(detail)")
        let push = try #require((detail["pushes"] as? [[String: String]])?.first { $0["Push"] == "p1" }, "\(detail)")
        #expect(push["Influenced opens"] == "1" && push["Conversions"] == "2" && push["Conversion value"] == "EUR 5 · USD 9.99", "\(push)")

        // The page's date range bounds the panel by event time: a day in 2020 holds none of it.
        let empty = try #require(output["empty_range"] as? [String: Any], "\(run.log)")
        #expect(empty["empty_shown"] as? Bool == true, "\(empty)")
        #expect((empty["rows"] as? [[String: String]])?.allSatisfy { $0["Total"] == "0" } == true, "\(empty)")
        #expect(empty["value"] as? String == "–" && empty["unattributed_value"] as? String == "–", "\(empty)")
        #expect(try await server.stop() == 0)
    }
}
