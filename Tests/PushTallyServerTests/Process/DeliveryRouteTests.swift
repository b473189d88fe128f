import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// The dark devices routes on a live server, both engines: per-device deliveries (NDJSON and a JSON array, refusals
/// naming the line and field), `devices/states`, the devices report as JSON and CSV, and the CLI's import and
/// report.
@Suite(.serialized) struct DeliveryRouteTests {
    struct Answer {
        let status: Int
        let json: [String: Any]
        let text: String
    }

    static func send(
        _ server: ServerProcess, _ method: String, _ path: String, _ body: String, type: String = "application/json",
        token: String? = nil
    ) async throws -> Answer {
        let answer = try await httpRequest(
            URL(string: server.baseURL.absoluteString + path)!, method: method,
            headers: ["Authorization": "Bearer \(token ?? server.adminToken)", "Content-Type": type], body: Data(body.utf8))
        let text = String(decoding: answer.body, as: UTF8.self)
        return Answer(status: answer.status, json: (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]) ?? [:], text: text)
    }

    @Test(arguments: StoreKind.allCases) func deliveriesStatesAndTheReportOverHTTPAndTheCLI(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "deliveries")
        let server = store.server
        defer { server.removeFiles() }
        #expect(try await Self.send(server, "PUT", "/v1/pushes/p-http", #"{"campaign":"dark","app":"com.example"}"#).status == 201)

        // NDJSON, then the same lines as a JSON array: the second post repeats them all.
        let lines = #"""
            {"device_id":"dev-1","platform":"iOS","outcome":"accepted","recipient":"user-1"}
            {"device_id":"dev-2","platform":"ios","outcome":"BadDeviceToken","timestamp":"2026-11-20T08:00:03Z"}
            """#
        let first = try await Self.send(server, "POST", "/v1/pushes/p-http/deliveries", lines, type: "application/x-ndjson")
        #expect(first.status == 200 && first.text == #"{"accepted":1,"lines":2,"refused":1,"repeated":0,"stored":2}"#, "\(first.text)")
        let array = "[" + lines.split(separator: "\n").joined(separator: ",") + "]"
        let second = try await Self.send(server, "POST", "/v1/pushes/p-http/deliveries", array)
        #expect(second.json["repeated"] as? Int == 2 && second.json["stored"] as? Int == 0, "\(second.text)")

        // Refusals: a bad line with its number and field, an unknown push, a token of another role, a batch id
        // that takes the deliveries' prefix.
        let bad = try await Self.send(
            server, "POST", "/v1/pushes/p-http/deliveries", "{\"device_id\":\"d\",\"platform\":\"ios\",\"outcome\":\"accepted\"}\n{\"device_id\":\"d2\",\"platform\":\"ios\"}",
            type: "application/x-ndjson")
        #expect(bad.status == 400 && bad.json["field"] as? String == "outcome" && bad.json["line"] as? Int == 2, "\(bad.text)")
        let unknown = try await Self.send(server, "POST", "/v1/pushes/p-nobody/deliveries", "[]")
        #expect(unknown.status == 404 && unknown.json["error"] as? String == "push_not_registered" && unknown.json["field"] as? String == "push_id")
        let readToken = try await runPushtally(["keys", "create", "--role", "read"] + store.arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await Self.send(server, "POST", "/v1/pushes/p-http/deliveries", "[]", token: readToken).status == 403)
        let reserved = try await Self.send(server, "POST", "/v1/pushes/p-http/sends", #"{"batch_id":"deliveries:ios","sent":1}"#)
        #expect(reserved.status == 400 && reserved.json["field"] as? String == "batch_id", "\(reserved.text)")

        // The states of the ids the backend holds, in its order; one it never posted is null.
        let states = try await Self.send(server, "POST", "/v1/devices/states?days=7", #"["dev-2","nobody","dev-1"]"#)
        let devices = states.json["devices"] as? [[String: Any]] ?? []
        #expect(devices.map { $0["device_id"] as? String ?? "" } == ["dev-2", "nobody", "dev-1"], "\(states.text)")
        #expect(devices.map { $0["state"] as? String ?? "null" } == ["rejected", "null", "unknown"], "\(states.text)")
        #expect(devices.first?["last_outcome_at"] as? String == "2026-11-20T08:00:03Z" && devices.last?["recipient"] as? String == "user-1")
        #expect(states.json["days"] as? Int == 7)
        for (path, body) in [("/v1/devices/states?days=0", "[]"), ("/v1/devices/states", #"["ok", 7]"#), ("/v1/devices/states", #"{"a":1}"#)] {
            let refused = try await Self.send(server, "POST", path, body)
            #expect(refused.status == 400 && refused.json["field"] != nil, "\(path) \(body): \(refused.text)")
        }

        // The report, as JSON and CSV, and through the CLI.
        let report = try await Self.send(server, "GET", "/v1/reports/devices?days=30&min_sends=1", "", token: readToken)
        let rows = report.json["devices"] as? [[String: Any]] ?? []
        #expect(rows.count == 1 && rows.first?["sent_to"] as? Int == 2 && rows.first?["rejected"] as? Int == 1 && rows.first?["unknown"] as? Int == 1, "\(report.text)")
        #expect(rows.first?["dark_rate"] as? Double == 1 && rows.first?["app"] as? String == "com.example" && rows.first?["platform"] as? String == "ios")
        let csv = try await Self.send(server, "GET", "/v1/reports/devices?format=csv&min_sends=2", "", token: readToken)
        #expect(csv.text == "app,platform,sent_to,rejected,unknown,gone,muted,ignoring,engaged,muted_notifications_off,dark,dark_rate\r\n", "\(csv.text)")
        let refusedDays = try await Self.send(server, "GET", "/v1/reports/devices?days=91", "", token: readToken)
        #expect(refusedDays.status == 400 && refusedDays.json["field"] as? String == "days")

        // `pushes import --deliveries` through the server, then the CLI's report on the database.
        let file = server.directory.appendingPathComponent("deliveries.csv")
        try "push_id,device_id,platform,outcome,recipient\np-http,dev-3,android,accepted,user-3\np-http,dev-1,ios,accepted,\np-nobody,dev-4,ios,accepted,\n,dev-5,ios,accepted,\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let imported = try await runPushtally(
            ["pushes", "import", "--deliveries", file.path, "--server", server.baseURL.absoluteString, "--token", server.adminToken])
        #expect(imported.status == 5, "a refused push and a row without a push id: \(imported.stdout) \(imported.stderr)")
        #expect(imported.stdout.hasPrefix("read 2 deliveries: stored 1 (accepted 1, refused 0), repeated 1, rejected 1"), "\(imported.stdout)")
        let cli = try await runPushtally(["report", "devices", "--format", "json"] + store.arguments)
        let cliRows = (try? JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])?["devices"] as? [[String: Any]]
        #expect(cliRows?.map { "\($0["platform"] ?? "") \($0["sent_to"] ?? "")" } == ["android 1", "ios 2"], "\(cli.stdout) \(cli.stderr)")
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    /// `pushtally_devices{app,platform,state}` and `pushtally_devices_sent_to` on `/metrics`, counted by the server's
    /// own clock (`--device-gauge-interval`), never at scrape time.
    @Test func theDeviceGaugesCountTheStates() async throws {
        let server = try ServerProcess(extraArguments: ["--device-gauge-interval", "0.2"])
        defer { server.removeFiles() }
        try await server.start()
        #expect(try await Self.send(server, "PUT", "/v1/pushes/p-gauge", #"{"campaign":"c","app":"com.example"}"#).status == 201)
        let lines = #"[{"device_id":"a","platform":"ios","outcome":"accepted"},{"device_id":"b","platform":"ios","outcome":"Unregistered"}]"#
        #expect(try await Self.send(server, "POST", "/v1/pushes/p-gauge/deliveries", lines).status == 200)
        let labels = #"app="com.example",platform="ios""#
        var text = ""
        // The next count after the post shows it (every 0.2 s); a minute without it is a failure, not a wait.
        for _ in 0..<600 where !text.contains("pushtally_devices_sent_to{\(labels)} 2") {
            try await Task.sleep(for: .milliseconds(100))
            text = String(decoding: try await httpRequest(server.baseURL.appendingPathComponent("metrics")).body, as: UTF8.self)
        }
        #expect(text.contains("pushtally_devices_sent_to{\(labels)} 2"), "no device count on /metrics")
        for (state, count) in [("rejected", 1), ("unknown", 1), ("gone", 0), ("muted", 0), ("ignoring", 0), ("engaged", 0)] {
            #expect(text.contains("pushtally_devices{\(labels),state=\"\(state)\"} \(count)"), "\(state): \(text.split(separator: "\n").filter { $0.hasPrefix("pushtally_devices") })")
        }
        #expect(try await server.stop() == 0)
    }
}
