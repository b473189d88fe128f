import Foundation
import PushTallyTestSupport
import Testing

/// A campaign's A/B variants and its superseded pushes, as the dashboard shows them in Chromium (selenium with
/// Debian's chromedriver), signed in through its form with a read token. The expected intervals and p-values were
/// computed with SciPy (Wilson 95 % intervals, pooled two-proportion z-test), independently of the server.
@Suite(.serialized) struct DashboardVariantsTests {
    static let script = PackageRoot.file("Tests/browser/variants_clicks.py").path

    /// Registers `pushes` (id and JSON body) and posts one display per device `0..<displayed` and one open per
    /// device `0..<opened` of each push.
    static func seed(_ server: ServerProcess, _ pushes: [(id: String, body: String, displayed: Int, opened: Int)]) async throws {
        let now = Int(Date().timeIntervalSince1970)
        let admin = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        let open = ["Content-Type": "application/json"]
        for push in pushes {
            var posts = [("v1/pushes/\(push.id)", "PUT", admin, push.body)]
            let receipts = (0..<push.displayed).map { #"{"push_id":"\#(push.id)","device_id":"\#(push.id)-\#($0)","ts":\#(now - 600)}"# }
            let taps = (0..<push.opened).map { #"{"push_id":"\#(push.id)","device_id":"\#(push.id)-\#($0)","action":"open","ts":\#(now - 540)}"# }
            if !receipts.isEmpty { posts.append(("v1/receipts", "POST", open, "[\(receipts.joined(separator: ","))]")) }
            if !taps.isEmpty { posts.append(("v1/actions", "POST", open, "[\(taps.joined(separator: ","))]")) }
            for (path, method, headers, body) in posts {
                let answer = try await httpRequest(server.baseURL.appendingPathComponent(path), method: method, headers: headers, body: Data(body.utf8))
                #expect((200..<300).contains(answer.status), "\(path): \(String(decoding: answer.body, as: UTF8.self))")
            }
        }
    }

    /// Runs the script on `specs` (`NAME` or `NAME=CONTROL,CONTROL`) with a read token; its campaigns by name.
    static func clicks(_ server: ServerProcess, _ specs: [String]) async throws -> [String: [String: Any]] {
        let run = try await DashboardScript(script, on: server, arguments: specs)
        let output = run.output
        return try #require(output["campaigns"] as? [String: [String: Any]], "\(run.log)")
    }

    /// One view of the Variants table: its rows by their Variant cell.
    static func rows(_ view: [String: Any]) -> [String: [String: String]] {
        Dictionary(((view["rows"] as? [[String: String]]) ?? []).map { ($0["Variant"] ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Variant A: 10 of 20 displayed, 4 of those opened; B: 16 of 20, 12; C: registered, nothing sent. The
    /// default control is A (no `control` variant, first by name); then C (no sends: every lift and p-value
    /// null, shown "–"), then B. Campaigns with one variant, or none, show no Variants section.
    @Test func comparesVariantsAgainstTheControlPicked() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        try await Self.seed(server, [
            ("pa", #"{"campaign":"spring sale","variant":"A","sent":20}"#, 10, 4),
            ("pb", #"{"campaign":"spring sale","variant":"B","sent":20}"#, 16, 12),
            ("pc", #"{"campaign":"spring sale","variant":"C","sent":0}"#, 0, 0),
            ("autumn-1", #"{"campaign":"autumn","variant":"A","sent":5}"#, 3, 1),
            ("winter-1", #"{"campaign":"winter","sent":5}"#, 3, 1),
        ])
        let campaigns = try await Self.clicks(server, ["spring sale=C,B", "autumn", "winter"])
        let spring = try #require(campaigns["spring sale"], "\(campaigns)")
        #expect(spring["shown"] as? Bool == true, "\(spring)")
        let views = try #require(spring["views"] as? [[String: Any]], "\(spring)")
        try #require(views.count == 3, "\(views)")

        #expect(views[0]["options"] as? [String] == ["A", "B", "C"] && views[0]["selected"] as? String == "A", "\(views[0])")
        let byA = Self.rows(views[0])
        #expect(byA["A (control)"]?["Sent"] == "20" && byA["A (control)"]?["Displayed"] == "10", "\(byA)")
        #expect(byA["A (control)"]?["Display rate (95% CI)"] == "50.0% (29.9–70.1%)", "\(byA)")
        #expect(byA["A (control)"]?["Opened"] == "4" && byA["A (control)"]?["Open rate (95% CI)"] == "40.0% (16.8–68.7%)", "\(byA)")
        #expect(byA["B"] == [
            "Variant": "B", "Sent": "20", "Displayed": "16", "Display rate (95% CI)": "80.0% (58.4–91.9%)",
            "Display lift": "+60.0%", "Display p": "0.047", "Opened": "12", "Open rate (95% CI)": "75.0% (50.5–89.8%)",
            "Open lift": "+87.5%", "Open p": "0.074",
        ], "\(byA)")
        #expect(byA["C"] == [
            "Variant": "C", "Sent": "0", "Displayed": "0", "Display rate (95% CI)": "–", "Display lift": "–", "Display p": "–",
            "Opened": "0", "Open rate (95% CI)": "–", "Open lift": "–", "Open p": "–",
        ], "\(byA)")
        #expect(views[0]["bold"] as? [String] == ["0.047"], "\(views[0])")

        // A control with no sends has no rate: lifts and p-values are null, never NaN.
        let byC = Self.rows(views[1])
        #expect(views[1]["selected"] as? String == "C" && byC["C (control)"] != nil, "\(views[1])")
        for variant in ["A", "B"] {
            #expect(byC[variant]?["Display lift"] == "–" && byC[variant]?["Display p"] == "–", "\(byC)")
            #expect(byC[variant]?["Open lift"] == "–" && byC[variant]?["Open p"] == "–", "\(byC)")
        }
        #expect(views[1]["bold"] as? [String] == [], "\(views[1])")

        let byB = Self.rows(views[2])
        #expect(byB["A"]?["Display lift"] == "-37.5%" && byB["A"]?["Display p"] == "0.047", "\(byB)")
        #expect(byB["A"]?["Open lift"] == "-46.7%" && byB["A"]?["Open p"] == "0.074", "\(byB)")
        #expect(byB["B (control)"]?["Display rate (95% CI)"] == "80.0% (58.4–91.9%)", "\(byB)")

        #expect(campaigns["autumn"]?["shown"] as? Bool == false, "\(campaigns)")
        #expect(campaigns["winter"]?["shown"] as? Bool == false, "\(campaigns)")
        #expect(try await server.stop() == 0)
    }

    /// A campaign named `..`, which no URL path can carry, shows its variants as any other: the page asks for
    /// them by query.
    @Test func aCampaignNamedDotDotShowsItsVariants() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        try await Self.seed(server, [
            ("dot-a", #"{"campaign":"..","variant":"A","sent":20}"#, 10, 4),
            ("dot-b", #"{"campaign":"..","variant":"B","sent":20}"#, 16, 12),
        ])
        let campaigns = try await Self.clicks(server, ["..=B"])
        let dots = try #require(campaigns[".."], "\(campaigns)")
        #expect(dots["shown"] as? Bool == true, "\(dots)")
        let views = try #require(dots["views"] as? [[String: Any]], "\(dots)")
        try #require(views.count == 2, "\(views)")
        #expect(Self.rows(views[0])["B"]?["Display lift"] == "+60.0%", "\(views[0])")
        #expect(Self.rows(views[1])["B (control)"]?["Display rate (95% CI)"] == "80.0% (58.4–91.9%)", "\(views[1])")
        #expect(Self.rows(views[1])["A"]?["Display lift"] == "-37.5%", "\(views[1])")
        #expect(try await server.stop() == 0)
    }

    /// n1 and n2 share an app and a collapse id and n1 never expires, so n2, sent 90 s later, supersedes it; n3
    /// has its own collapse id. The pushes table names the later push and the delay; the campaign counts one.
    @Test func showsWhichPushSupersededWhich() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let sent = Int(Date().timeIntervalSince1970) - 3600
        let attributes = #""campaign":"news","app":"com.example.news","sent":10"#
        try await Self.seed(server, [
            ("n1", #"{\#(attributes),"collapse_id":"score","sent_at":\#(sent)}"#, 2, 0),
            ("n2", #"{\#(attributes),"collapse_id":"score","sent_at":\#(sent + 90)}"#, 5, 1),
            ("n3", #"{\#(attributes),"collapse_id":"other","sent_at":\#(sent + 30)}"#, 4, 0),
        ])
        let campaigns = try await Self.clicks(server, ["news"])
        let news = try #require(campaigns["news"], "\(campaigns)")
        let pushes = Dictionary(((news["pushes"] as? [[String: String]]) ?? []).map { ($0["Push"] ?? "", $0["Superseded by"]) }, uniquingKeysWith: { first, _ in first })
        #expect(pushes == ["n1": "n2 after 90 s", "n2": "–", "n3": "–"], "\(news)")
        #expect((news["row"] as? [String: String])?["Superseded pushes"] == "1", "\(news)")
        #expect(news["shown"] as? Bool == false, "\(news)")
        #expect(try await server.stop() == 0)
    }
}
