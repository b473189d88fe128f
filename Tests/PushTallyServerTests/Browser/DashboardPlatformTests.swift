import Foundation
import PushTallyTestSupport
import Testing

/// A campaign sent to iOS and Android, its platforms side by side in the drill-down as a person sees them in
/// Chromium: each platform's sends, unique displays and display rate equal to a recount of what was sent and
/// posted and to `campaigns?by=platform`'s JSON; a campaign whose clients named no platform shows no such table.
@Suite(.serialized) struct DashboardPlatformTests {
    static let script = PackageRoot.file("Tests/browser/platform_clicks.py").path

    @Test func eachPlatformsDisplayRateSideBySide() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let backend = ["Content-Type": "application/json", "Authorization": "Bearer \(server.adminToken)"]
        func send(_ method: String, _ path: String, _ body: String, headers: [String: String] = backend) async throws {
            let answer = try await httpRequest(server.baseURL.appendingPathComponent(path), method: method, headers: headers, body: Data(body.utf8))
            #expect((200..<300).contains(answer.status), "\(path): \(String(decoding: answer.body, as: UTF8.self))")
        }
        // iOS: 6 of 10 displayed (one receipt retried), 3 opened; Android: 5 of 20 displayed.
        try await send("PUT", "v1/pushes/mixed-1", #"{"campaign":"mixed","sent":10,"platform":"ios"}"#)
        try await send("POST", "v1/pushes/mixed-1/sends", #"{"batch_id":"fcm","sent":20,"platform":"android"}"#)
        let ios = (0..<6).map { #"{"push_id":"mixed-1","device_id":"i\#($0)","receipt_id":"i\#($0)","platform":"ios"}"# }
        let retry = #"{"push_id":"mixed-1","device_id":"i0","receipt_id":"i0","platform":"ios"}"#
        let android = (0..<5).map { #"{"push_id":"mixed-1","device_id":"a\#($0)","receipt_id":"a\#($0)","platform":"android"}"# }
        try await send("POST", "v1/receipts", "[\((ios + [retry] + android).joined(separator: ","))]", headers: ["Content-Type": "application/json"])
        let opens = (0..<3).map { #"{"push_id":"mixed-1","device_id":"i\#($0)","action":"open","platform":"ios"}"# }
        try await send("POST", "v1/actions", "[\(opens.joined(separator: ","))]", headers: ["Content-Type": "application/json"])
        // Clients that never name a platform.
        try await send("PUT", "v1/pushes/plain-1", #"{"campaign":"plain","sent":5}"#)
        try await send("POST", "v1/receipts", #"[{"push_id":"plain-1","device_id":"p0"},{"push_id":"plain-1","device_id":"p1"}]"#,
            headers: ["Content-Type": "application/json"])

        let answer = try await httpRequest(
            URL(string: server.baseURL.absoluteString + "/v1/reports/campaigns?by=platform&campaign=mixed")!,
            headers: ["Authorization": "Bearer \(server.adminToken)"])
        let json = try #require((try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["campaigns"] as? [[String: Any]])

        let run = try await DashboardScript(Self.script, on: server, arguments: ["mixed", "plain"])
        let campaigns = try #require(run.output["campaigns"] as? [String: [String: Any]], "\(run.log)")
        let mixed = try #require(campaigns["mixed"], "\(campaigns)")
        #expect(mixed["shown"] as? Bool == true, "\(mixed)")
        #expect(mixed["columns"] as? [String] == ["Platform", "Sent", "Displayed", "Display rate", "Opened", "Open rate"], "\(mixed)")
        let rows = Dictionary(
            ((mixed["rows"] as? [[String: String]]) ?? []).map { ($0["Platform"] ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(rows["iOS"] == ["Platform": "iOS", "Sent": "10", "Displayed": "6", "Display rate": "60.0%", "Opened": "3", "Open rate": "50.0%"],
            "\(rows)")
        #expect(rows["Android"] == ["Platform": "Android", "Sent": "20", "Displayed": "5", "Display rate": "25.0%", "Opened": "0", "Open rate": "0.0%"],
            "\(rows)")
        // Every row of the report's JSON, and no other, with its figures as shown.
        let names = ["ios": "iOS", "android": "Android", "unknown": "Not named"]
        #expect(Set(rows.keys) == Set(json.compactMap { ($0["platform"] as? String).map { names[$0] ?? $0 } }), "\(rows) against \(json)")
        for row in json {
            let platform = try #require(row["platform"] as? String)
            let shown = rows[names[platform] ?? platform]
            #expect(shown?["Sent"] == "\(row["sent"] as? Int ?? -1)" && shown?["Displayed"] == "\(row["displayed_unique"] as? Int ?? -1)",
                "\(platform): \(shown ?? [:]) against \(row)")
        }

        let plain = try #require(campaigns["plain"], "\(campaigns)")
        #expect(plain["shown"] as? Bool == false, "\(plain)")
        #expect((run.output["errors"] as? [String])?.isEmpty == true, "\(run.output)")
        #expect(try await server.stop() == 0)
    }
}
