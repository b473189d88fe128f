import Foundation
import PushTallyTestSupport
import Testing

/// `pushtally report audience` and `GET /v1/reports/audience`, from the store and from a server, on both
/// stores: a device whose setting changes counts under its latest one, by day, app and app version.
@Suite(.serialized) struct AudienceCLITests {
    static let header = "devices,authorized,provisional,ephemeral,denied,not_determined,unknown,opt_in_rate"

    /// Three devices yesterday: `d1` authorized then denied, `d2` provisional then a session that does not say,
    /// `d3` never says. The server is left running.
    static func seeded(_ kind: StoreKind) async throws -> (StoreServer, day: String) {
        let store = try await StoreServer.start(kind, name: "audience-cli")
        let midnight = (Int(Date().timeIntervalSince1970) / 86_400 - 1) * 86_400
        let t = { (hour: Int) in midnight + hour * 3600 }
        let sessions = [
            #"{"device_id":"d1","session_id":"s1","ts":\#(t(9)),"app":"com.example.a","app_version":"1.0","notification_permission":"authorized"}"#,
            #"{"device_id":"d1","session_id":"s2","ts":\#(t(15)),"app":"com.example.a","app_version":"1.1","notification_permission":"denied"}"#,
            #"{"device_id":"d2","session_id":"s3","ts":\#(t(10)),"app":"com.example.a","app_version":"1.0","notification_permission":"provisional"}"#,
            #"{"device_id":"d2","session_id":"s4","ts":\#(t(20)),"app":"com.example.a","app_version":"1.0"}"#,
            #"{"device_id":"d3","session_id":"s5","ts":\#(t(11))}"#,
        ]
        let answer = try await httpRequest(
            store.server.baseURL.appendingPathComponent("v1/sessions"), method: "POST",
            headers: ["Content-Type": "application/json"], body: Data(("[" + sessions.joined(separator: ",") + "]").utf8))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        let day = String(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(midnight))).prefix(10))
        return (store, day)
    }

    @Test(arguments: StoreKind.allCases)
    func theFileTheServerAndTheAPIAgree(kind: StoreKind) async throws {
        let (store, day) = try await Self.seeded(kind)
        let server = store.server
        let remote = ["--server", server.baseURL.absoluteString, "--token", server.adminToken]
        let expected: [String?: [String]] = [
            nil: [Self.header, "3,0,1,0,1,0,1,0.5"],
            "day": ["day," + Self.header, "\(day),3,0,1,0,1,0,1,0.5"],
            "app": ["app," + Self.header, "com.example.a,2,0,1,0,1,0,0,0.5", ",1,0,0,0,0,0,1,"],
            "app_version": ["app_version," + Self.header, "1.0,2,1,1,0,0,0,0,1.0", "1.1,1,0,0,0,1,0,0,0.0", ",1,0,0,0,0,0,1,"],
        ]
        for (by, lines) in expected {
            let flag = by.map { ["--by", $0] } ?? []
            let local = try await runPushtally(["report", "audience", "--format", "csv"] + flag + store.arguments)
            #expect(local.status == 0, "\(local.stderr)")
            #expect(local.stdout.split(separator: "\r\n").map(String.init) == lines, "\(by ?? "none"): \(local.stdout)")
            for format in ["csv", "json"] {
                let viaServer = try await runPushtally(["report", "audience", "--format", format] + flag + remote)
                let file = try await runPushtally(["report", "audience", "--format", format] + flag + store.arguments)
                #expect(viaServer.status == 0 && viaServer.stdout == file.stdout, "\(format): \(viaServer.stderr)")
            }
        }
        let authorization = ["Authorization": "Bearer \(server.adminToken)"]
        let json = try await httpRequest(server.baseURL.appendingPathComponent("v1/reports/audience"), headers: authorization)
        #expect(String(decoding: json.body, as: UTF8.self) == #"{"audience":[{"authorized":0,"denied":1,"devices":3,"ephemeral":0,"not_determined":0,"opt_in_rate":0.5,"provisional":1,"unknown":1}]}"#)
        var components = URLComponents(url: server.baseURL.appendingPathComponent("v1/reports/audience"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "by", value: "day"), URLQueryItem(name: "format", value: "csv"), URLQueryItem(name: "bom", value: "1")]
        let csv = try await httpRequest(components.url!, headers: authorization)
        #expect(String(decoding: csv.body, as: UTF8.self) == "\u{FEFF}day,\(Self.header)\r\n\(day),3,0,1,0,1,0,1,0.5\r\n")
        // A `by` of another report, or a filter sessions do not have, is refused naming it.
        for query in ["by=priority", "by=week", "campaign=c"] {
            let refused = try await httpRequest(
                URL(string: server.baseURL.appendingPathComponent("v1/reports/audience").absoluteString + "?" + query)!, headers: authorization)
            #expect(refused.status == 400, "\(query)")
            let field = String(query.prefix { $0 != "=" })
            #expect(String(decoding: refused.body, as: UTF8.self).contains(#""field":"\#(field)""#), "\(query)")
        }
        for source in [store.arguments, remote] {
            let refused = try await runPushtally(["report", "audience", "--by", "priority"] + source)
            #expect(refused.status == 64 && refused.stderr.contains("by must be one of day, app, app_version"), "\(refused.stderr)")
        }
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }
}
