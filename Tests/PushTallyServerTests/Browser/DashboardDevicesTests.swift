import Foundation
import PushTallyTestSupport
import Testing

/// The Dark devices card as the dashboard shows it in Chromium, signed in through its form with a read token:
/// the devices a push went to (posted per device by the backend) by whether they show pushes.
@Suite(.serialized) struct DashboardDevicesTests {
    static let script = PackageRoot.file("Tests/browser/devices_clicks.py").path

    @Test func showsTheDarkShareAndTheSplit() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let base = server.baseURL
        let auth = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        func post(_ path: String, _ body: String, headers: [String: String] = ["Content-Type": "application/json"]) async throws {
            let answer = try await httpRequest(base.appendingPathComponent(path), method: "POST", headers: headers, body: Data(body.utf8))
            #expect(answer.status < 300, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
        }
        let registered = try await httpRequest(
            base.appendingPathComponent("v1/pushes/p-dark"), method: "PUT", headers: auth, body: Data(#"{"campaign":"dark"}"#.utf8))
        #expect(registered.status == 201)
        // An engaged device shows the push and taps it; another only shows it; a muted one opens the app with
        // notifications off; an unknown one never posts anything; the provider refuses the last one.
        try await post("v1/receipts", #"[{"push_id":"p-dark","device_id":"engaged","receipt_id":"r1"},{"push_id":"p-dark","device_id":"ignoring","receipt_id":"r2"}]"#)
        try await post("v1/actions", #"{"push_id":"p-dark","device_id":"engaged","action":"open"}"#)
        try await post("v1/sessions", #"{"device_id":"muted","session_id":"s1","notification_permission":"denied"}"#)
        let lines = ["engaged", "ignoring", "muted", "unknown"].map { #"{"device_id":"\#($0)","platform":"ios","outcome":"accepted"}"# }
            + [#"{"device_id":"rejected","platform":"ios","outcome":"Unregistered"}"#]
        try await post("v1/pushes/p-dark/deliveries", lines.joined(separator: "\n"), headers: auth.merging(["Content-Type": "application/x-ndjson"]) { $1 })

        let run = try await DashboardScript(Self.script, on: server)
        let card = try #require(run.output["card"] as? [String: Any], "\(run.log)")
        #expect(card["dark_rate"] as? String == "60.0%" && card["sent_to"] as? String == "5", "\(card)")
        let rows = try #require(card["rows"] as? [[String: String]], "\(card)")
        #expect(rows.map { $0["Devices"] ?? "" } == ["1", "1", "0", "1", "1", "1"], "\(rows)")
        #expect(rows.map { $0["Share"] ?? "" } == ["20.0%", "20.0%", "0.0%", "20.0%", "20.0%", "20.0%"], "\(rows)")
        #expect(card["empty_shown"] as? Bool == false, "\(card)")
        #expect(try await server.stop() == 0)
    }
}
