import Foundation
import PushTallyTestSupport
import Testing

/// The dashboard's views in Chromium at 1,280 x 800 (selenium with Debian's chromedriver, `Tests/browser/
/// views_clicks.py`): a view's link opened in a fresh browser, through the sign-in form, shows the figures the CSVs
/// give for that view; Back and Forward move between views; every column group of the campaigns table fits the
/// window beside the campaign column, and the group picked is remembered; no console error and no serious or
/// critical axe-core violation on any view.
@Suite(.serialized) struct DashboardViewTests {
    static let script = PackageRoot.file("Tests/browser/views_clicks.py").path
    static let campaign = "Black Friday 黑五"
    static let zone = "Asia/Shanghai"

    /// The campaign's push of two hours ago (1,200 sent, 500 displayed, 120 opened) and one of 30 days ago, outside
    /// the last 7 days; a campaign with a long name; displays of an unregistered push.
    static func seed(_ server: ServerProcess) async throws {
        let now = Int(Date().timeIntervalSince1970)
        let admin = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        func post(_ method: String, _ path: String, _ body: String) async throws {
            let answer = try await httpRequest(server.baseURL.appendingPathComponent(path), method: method, headers: admin, body: Data(body.utf8))
            #expect((200..<300).contains(answer.status), "\(path): \(String(decoding: answer.body, as: UTF8.self))")
        }
        let pushes: [(id: String, campaign: String, sent: Int, at: Int, displayed: Int, opened: Int)] = [
            ("bf-now", campaign, 1_200, now - 7_200, 500, 120), ("bf-old", campaign, 300, now - 30 * 86_400, 200, 50),
            ("long-1", "Black Friday early access for returning customers in every European market", 80, now - 3_600, 30, 3),
        ]
        for push in pushes {
            try await post("PUT", "v1/pushes/\(push.id)", #"{"campaign":"\#(push.campaign)","sent":\#(push.sent),"sent_at":\#(push.at)}"#)
            let receipts = (0..<push.displayed).map { #"{"push_id":"\#(push.id)","device_id":"d\#($0)","ts":\#(push.at + 60)}"# }
            let taps = (0..<push.opened).map { #"{"push_id":"\#(push.id)","device_id":"d\#($0)","action":"open","ts":\#(push.at + 120)}"# }
            try await post("POST", "v1/receipts", "[\(receipts.joined(separator: ","))]")
            try await post("POST", "v1/actions", "[\(taps.joined(separator: ","))]")
        }
        try await post("POST", "v1/receipts", #"[{"push_id":"unregistered-1","device_id":"x"}]"#)
        // Web receipts of the long-named campaign's push, for the platform filter.
        let web = (0..<5).map { #"{"push_id":"long-1","device_id":"w\#($0)","platform":"web","ts":\#(now - 3_540)}"# }
        try await post("POST", "v1/receipts", "[\(web.joined(separator: ","))]")
        // Their send record names the platform, so the web row has a display rate of its own (5 of 10).
        try await post("POST", "v1/pushes/long-1/sends", #"{"batch_id":"web","sent":10,"platform":"web"}"#)
    }

    @Test func aViewsLinkBackAndForwardColumnGroupsAndAccessibility() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        try await Self.seed(server)
        let created = try await runPushtally(["keys", "create", "--role", "read", "--database", server.databasePath])
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let run = try await runProcess(
            "/usr/bin/env", ["python3", Self.script, server.baseURL.absoluteString, token, Self.campaign, Self.zone, "7"], includingErrors: true)
        #expect(run.status == 0, "\(run.output)")
        let line = run.output.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? "{}"
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(run.output)")
        let deep = try #require(seen["deep"] as? [String: Any]), every = try #require(seen["every"] as? [String: Any])
        let expectedDeep = try #require(seen["expected_deep"] as? [String: Any])
        let expectedEvery = try #require(seen["expected_every"] as? [String: Any])

        // The link's view, shown after signing in: its controls, and the CSV's figures for it.
        #expect(deep["controls"] as? [String: String] == seen["controls"] as? [String: String], "\(deep)")
        #expect(deep["detail"] as? String == "Campaign \(Self.campaign)")
        #expect(deep["headline"] as? [String: String] == expectedDeep["headline"] as? [String: String], "\(deep) \(expectedDeep)")
        #expect((deep["headline"] as? [String: String])?["sent"] == "1,200", "only the push sent in the range: \(deep)")
        #expect(deep["series_displayed"] as? Int == 500 && expectedDeep["series_displayed"] as? Int == 500, "\(deep)")
        #expect(deep["series_buckets"] as? Int == 7 * 24 && expectedDeep["series_buckets"] as? Int == 7 * 24, "hourly over 7 days")
        // Every campaign in the same range.
        #expect(every["headline"] as? [String: String] == expectedEvery["headline"] as? [String: String], "\(every) \(expectedEvery)")
        // 1,200 and 80 registered, and the long-named campaign's web send record of 10.
        #expect((every["headline"] as? [String: String])?["sent"] == "1,290", "\(every)")
        #expect(every["scope"] as? String == "All campaigns" && every["detail"] is NSNull)
        // Back returns to the link's view, Forward to every campaign.
        let back = try #require(seen["back"] as? [String: Any]), forward = try #require(seen["forward"] as? [String: Any])
        for key in ["address", "detail", "scope"] { #expect(back[key] as? String == deep[key] as? String, "\(key): \(back)") }
        #expect(back["headline"] as? [String: String] == deep["headline"] as? [String: String])
        #expect(back["controls"] as? [String: String] == deep["controls"] as? [String: String])
        #expect(forward["address"] as? String == every["address"] as? String && forward["detail"] is NSNull, "\(forward)")
        #expect((deep["address"] as? String)?.contains("tz=Asia%2FShanghai") == true, "\(deep)")

        // The platform filter: the headline of the web receipts and the web send record alone, in the address.
        let web = try #require(seen["web"] as? [String: Any]), expectedWeb = try #require(seen["expected_web"] as? [String: Any])
        #expect(web["headline"] as? [String: String] == expectedWeb["headline"] as? [String: String], "\(web) \(expectedWeb)")
        #expect((web["headline"] as? [String: String])?["displayed"] == "5" && (web["headline"] as? [String: String])?["sent"] == "10", "\(web)")
        // The platform's rows show their display rates: the web send record's 10 against the 5 web receipts.
        #expect((web["headline"] as? [String: String])?["display-rate"] == "50.0%", "\(web)")
        #expect(web["rates"] as? [String] == expectedWeb["rates"] as? [String], "\(web) \(expectedWeb)")
        #expect(web["rates"] as? [String] == ["50.0%"], "\(web)")
        #expect((web["address"] as? String)?.contains("platform=web") == true, "\(web)")
        // The time series of the web receipts alone: the chart's displays are the CSV's, the five web receipts.
        #expect(web["series_displayed"] as? Int == 5 && expectedWeb["series_displayed"] as? Int == 5, "\(web) \(expectedWeb)")
        #expect(web["series_buckets"] as? Int == 7 * 24 && expectedWeb["series_buckets"] as? Int == 7 * 24, "\(web)")

        // Each group of columns within 1,280 px beside the campaign column; the group picked survives a reload.
        let layout = try #require(seen["layout"] as? [String: [String: Any]])
        for (group, column) in [("delivery", "Display rate"), ("engagement", "Open rate"), ("outcomes", "Conversion value")] {
            let shape = try #require(layout[group], "\(layout)")
            let headers = shape["headers"] as? [String] ?? []
            #expect(headers.first == "Campaign" && headers.contains(column), "\(group): \(headers)")
            #expect((shape["outside"] as? [String])?.isEmpty == true, "\(group): \(shape)")
            #expect((shape["page_overflow"] as? Int ?? 1) <= 0 && (shape["table_overflow"] as? Int ?? 1) <= 0, "\(group): \(shape)")
        }
        #expect(seen["remembered"] as? [String] == ["engagement"])
        #expect((seen["console_errors"] as? [Any])?.isEmpty == true, "\(seen["console_errors"] ?? "")")
        #expect((seen["violations"] as? [Any])?.isEmpty == true, "\(seen["violations"] ?? "")")
        #expect(try await server.stop() == 0)
    }
}
