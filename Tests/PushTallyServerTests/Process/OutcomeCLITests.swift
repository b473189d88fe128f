import Foundation
import PushTallyTestSupport
import Testing

/// `pushtally report attribution`, from the store and from a server, as CSV, JSON and a table for people.
@Suite(.serialized) struct OutcomeCLITests {
    /// A store holding one direct open, one unattributed session and two conversions (USD credited, EUR not);
    /// its server is left running.
    static func seeded(_ kind: StoreKind) async throws -> StoreServer {
        let store = try await StoreServer.start(kind, name: "outcome-cli")
        let base = store.server.baseURL
        let t = Int(Date().timeIntervalSince1970) - 3600
        let json = ["Content-Type": "application/json"]
        let posts: [(String, String)] = [
            ("receipts", #"{"push_id":"p1","device_id":"d1","ts":\#(t)}"#),
            ("actions", #"{"push_id":"p1","device_id":"d1","action":"open","ts":\#(t + 10)}"#),
            ("sessions", #"[{"device_id":"d1","session_id":"s1","ts":\#(t + 60)},{"device_id":"d2","session_id":"s2","ts":\#(t + 60)}]"#),
            ("conversions", #"[{"device_id":"d1","event":"buy","value":"9.99","currency":"USD","ts":\#(t + 90)},"#
                + #"{"device_id":"d2","event":"buy","value":5,"currency":"EUR","ts":\#(t + 90)}]"#),
        ]
        for (route, body) in posts {
            let answer = try await httpRequest(base.appendingPathComponent("v1/\(route)"), method: "POST", headers: json, body: Data(body.utf8))
            #expect(answer.status < 300, "\(route): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func theFileAndTheServerGiveTheSameReport(kind: StoreKind) async throws {
        let store = try await Self.seeded(kind)
        let server = store.server
        let remote = ["--server", server.baseURL.absoluteString, "--token", server.adminToken]
        let from = Int(Date().timeIntervalSince1970) - 7200
        for range in [[], ["--from", String(from), "--to", "2100-01-01T00:00:00Z"]] {
            for format in ["csv", "json", "table"] {
                let arguments = ["report", "attribution", "--format", format] + range
                let local = try await runPushtally(arguments + store.arguments)
                let viaServer = try await runPushtally(arguments + remote)
                #expect(local.status == 0, "\(format): \(local.stderr)")
                #expect(viaServer.status == 0, "\(format): \(viaServer.stderr)")
                #expect(local.stdout == viaServer.stdout, "\(format) \(range)")
            }
        }
        // And the same as the HTTP API's own JSON.
        let http = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/reports/attribution"), headers: ["Authorization": "Bearer \(server.adminToken)"])
        let json = try await runPushtally(["report", "attribution", "--format", "json"] + store.arguments)
        #expect(json.stdout == String(decoding: http.body, as: UTF8.self) + "\n")
        #expect(json.stdout.contains(#""sessions":2"#) && json.stdout.contains(#""conversion_value":{"USD":9.99}"#), "\(kind): \(json.stdout)")
        let csv = try await runPushtally(["report", "attribution", "--format", "csv"] + store.arguments)
        #expect(csv.stdout.hasPrefix("sessions,direct_opens,influenced_opens,unattributed_sessions,conversions,"), "\(csv.stdout)")
        #expect(csv.stdout.contains("conversion_value:USD") && csv.stdout.contains("unattributed_conversion_value:EUR"))
        // A filter the report does not take is a usage error (64) naming it, locally and remotely alike.
        for source in [store.arguments, remote] {
            let refused = try await runPushtally(["report", "attribution", "--app", "com.example"] + source)
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.stderr.contains("app"))
        }
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    /// On a terminal the totals read as one line for people: counts grouped, values as `USD 9.99`.
    @Test(arguments: StoreKind.allCases)
    func aTerminalGetsATable(kind: StoreKind) async throws {
        let store = try await Self.seeded(kind)
        #expect(try await store.server.stop() == 0)
        let drawn = await TerminalOutputTests.withoutColour(
            try TerminalOutputTests.onTerminal(["report", "attribution"] + store.arguments, columns: 120))
        let lines = drawn.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(drawn)")
        #expect(lines.first?.hasPrefix("sessions  direct opens  influenced opens  no-push sessions  conversions") == true, "\(drawn)")
        #expect(lines.last?.contains("USD 9.99") == true && lines.last?.hasSuffix("EUR 5") == true, "\(kind): \(drawn)")
        // Narrower, the rightmost columns give way; nothing is wider than the terminal.
        let narrow = try await TerminalOutputTests.onTerminal(["report", "attribution"] + store.arguments, columns: 60)
        for line in TerminalOutputTests.withoutColour(narrow).split(separator: "\n") {
            #expect(line.count <= 60, "\(line)")
        }
        await store.cleanUp()
    }
}
