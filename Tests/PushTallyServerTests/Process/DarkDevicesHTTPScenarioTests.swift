import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// 10,000 devices on iOS, Android and the web, each planted in one of the six states, posted through the HTTP API on
/// both engines: the devices report counts the planted states exactly, `POST /v1/devices/states` answers each
/// device's, a second post of the same deliveries changes nothing, and `pushtally forget --device` removes one.
/// A 3-day window lets `gone` be planted through the API: its device's events are 5 days old (clients may post
/// events up to 7 days late).
@Suite(.serialized) struct DarkDevicesHTTPScenarioTests {
    static let devices = 10_000
    static let platforms = ["ios", "android", "web"]

    static func planted(_ index: Int) -> (state: DarkState, platform: String) {
        (DarkState.allCases[index % DarkState.allCases.count], platforms[(index / DarkState.allCases.count) % platforms.count])
    }

    static func id(_ index: Int) -> String { "web-install-\(index)" }

    /// The client events (receipts, actions, sessions) that plant device `index`'s state, as JSON objects.
    static func events(_ index: Int, now: Int) -> (receipts: [String], actions: [String], sessions: [String]) {
        let (state, platform) = planted(index)
        let device = id(index)
        let display = #"{"push_id":"p-scenario","device_id":"\#(device)","receipt_id":"r-\#(index)","platform":"\#(platform)"}"#
        switch state {
        case .engaged:
            return ([display], [#"{"push_id":"p-scenario","device_id":"\#(device)","action":"open","platform":"\#(platform)"}"#], [])
        case .ignoring, .rejected: return ([display], [], [])
        case .muted:
            let permission = index % 2 == 0 ? "denied" : "authorized"
            return ([], [], [#"{"device_id":"\#(device)","session_id":"s-\#(index)","notification_permission":"\#(permission)","app":"com.example"}"#])
        case .gone:
            let old = now - 5 * 86_400
            return ([#"{"push_id":"p-before","device_id":"\#(device)","receipt_id":"old-\#(index)","ts":\#(old)}"#], [],
                    [#"{"device_id":"\#(device)","session_id":"old-s-\#(index)","ts":\#(old)}"#])
        case .unknown: return ([], [], [])
        }
    }

    static func post(_ server: ServerProcess, _ path: String, _ objects: [String], token: String? = nil) async throws {
        for start in stride(from: 0, to: objects.count, by: 1000) {
            var headers = ["Content-Type": "application/x-ndjson"]
            if let token { headers["Authorization"] = "Bearer \(token)" }
            let body = objects[start..<min(start + 1000, objects.count)].joined(separator: "\n")
            let answer = try await httpRequest(server.baseURL.appendingPathComponent(path), method: "POST", headers: headers, body: Data(body.utf8))
            #expect(answer.status < 300, "\(path): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        }
    }

    static func json(_ server: ServerProcess, _ method: String, _ path: String, _ body: String? = nil) async throws -> [String: Any] {
        let answer = try await httpRequest(
            URL(string: server.baseURL.absoluteString + path)!, method: method,
            headers: ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"], body: body.map { Data($0.utf8) })
        #expect((200..<300).contains(answer.status), "\(path): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
    }

    /// The report's rows as `platform state` → devices, from `GET /v1/reports/devices?days=3`.
    static func report(_ server: ServerProcess) async throws -> [String: Int] {
        let rows = try await json(server, "GET", "/v1/reports/devices?days=3")["devices"] as? [[String: Any]] ?? []
        var counts: [String: Int] = [:]
        for row in rows {
            #expect(row["app"] as? String == "com.example")
            let platform = row["platform"] as? String ?? ""
            var sum = 0
            for state in DarkState.allCases {
                counts["\(platform) \(state.rawValue)"] = row[state.rawValue] as? Int ?? -1
                sum += row[state.rawValue] as? Int ?? 0
            }
            #expect(row["sent_to"] as? Int == sum, "the six states add up to sent_to")
        }
        return counts
    }

    static func expected(_ indices: some Sequence<Int>) -> [String: Int] {
        var counts: [String: Int] = [:]
        for platform in platforms { for state in DarkState.allCases { counts["\(platform) \(state.rawValue)"] = 0 } }
        for index in indices { counts["\(planted(index).platform) \(planted(index).state.rawValue)"]! += 1 }
        return counts
    }

    @Test(arguments: StoreKind.allCases) func plantedStatesAreCountedAndAnsweredExactly(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "dark-http")
        let server = store.server
        defer { server.removeFiles() }
        let now = Int(Date().timeIntervalSince1970)
        _ = try await Self.json(server, "PUT", "/v1/pushes/p-scenario", #"{"campaign":"dark","app":"com.example"}"#)
        let all = Array(0..<Self.devices)
        // Half the devices' events before the deliveries, half after.
        func postEvents(_ indices: [Int]) async throws {
            let events = indices.map { Self.events($0, now: now) }
            try await Self.post(server, "v1/receipts", events.flatMap(\.receipts))
            try await Self.post(server, "v1/actions", events.flatMap(\.actions))
            try await Self.post(server, "v1/sessions", events.flatMap(\.sessions))
        }
        try await postEvents(all.filter { $0 % 2 == 0 })
        let lines = all.map { index in
            let (state, platform) = Self.planted(index)
            let outcome = state == .rejected ? (platform == "android" ? "UNREGISTERED" : "Unregistered") : "accepted"
            return #"{"device_id":"\#(Self.id(index))","platform":"\#(platform)","outcome":"\#(outcome)","recipient":"user-\#(index)"}"#
        }
        try await Self.post(server, "v1/pushes/p-scenario/deliveries", lines, token: server.adminToken)
        try await postEvents(all.filter { $0 % 2 == 1 })

        #expect(try await Self.report(server) == Self.expected(all))
        // Every device's answer is its planted state.
        let ids = try String(decoding: JSONSerialization.data(withJSONObject: all.map(Self.id)), as: UTF8.self)
        let answers = try await Self.json(server, "POST", "/v1/devices/states?days=3", ids)["devices"] as? [[String: Any]] ?? []
        #expect(answers.count == Self.devices)
        let wrong = zip(all, answers).filter { index, answer in
            answer["device_id"] as? String != Self.id(index) || answer["state"] as? String != Self.planted(index).state.rawValue
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(3).map { "\($0.0): \($0.1)" })")

        // The same deliveries again: nothing changes; the push counts each device once.
        try await Self.post(server, "v1/pushes/p-scenario/deliveries", lines, token: server.adminToken)
        #expect(try await Self.report(server) == Self.expected(all))
        let push = try await Self.json(server, "GET", "/v1/reports/pushes/p-scenario?format=json")["pushes"] as? [[String: Any]]
        let rejected = all.filter { Self.planted($0).state == .rejected }.count
        #expect(push?.first?["sent"] as? Int == Self.devices - rejected && push?.first?["targeted"] as? Int == Self.devices, "\(String(describing: push))")

        // Forgotten: in no count.
        let forgotten = all.first { Self.planted($0).state == .engaged && Self.planted($0).platform == "web" }!
        let forget = try await runPushtally(["forget", "--device", Self.id(forgotten)] + store.arguments)
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(try await Self.report(server) == Self.expected(all.filter { $0 != forgotten }))
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }
}
