import Foundation
import PushTallyTestSupport
import Testing

/// `pushtally report variants`, from the store and from a server, as CSV, JSON and a table for people.
@Suite(.serialized) struct VariantCLITests {
    /// A campaign with arms A (2 of 4 displayed, 1 opened), B (3 of 4, 3) and one push without a variant; its
    /// server is left running.
    static func seeded(_ kind: StoreKind) async throws -> StoreServer {
        let store = try await StoreServer.start(kind, name: "variant-cli")
        let base = store.server.baseURL
        let headers = ["Content-Type": "application/json", "Authorization": "Bearer \(store.server.adminToken)"]
        for (id, variant) in [("a1", #","variant":"A""#), ("b1", #","variant":"B""#), ("n1", "")] {
            let body = #"{"campaign":"spring sale","sent":4\#(variant)}"#
            let answer = try await httpRequest(base.appendingPathComponent("v1/pushes/\(id)"), method: "PUT", headers: headers, body: Data(body.utf8))
            #expect(answer.status < 300, "\(String(decoding: answer.body, as: UTF8.self))")
        }
        let events = [
            ("receipts", #"[{"push_id":"a1","device_id":"1"},{"push_id":"a1","device_id":"2"},"#
                + #"{"push_id":"b1","device_id":"1"},{"push_id":"b1","device_id":"2"},{"push_id":"b1","device_id":"3"}]"#),
            ("actions", #"[{"push_id":"a1","device_id":"1","action":"open"},{"push_id":"b1","device_id":"1","action":"open"},"#
                + #"{"push_id":"b1","device_id":"2","action":"open"},{"push_id":"b1","device_id":"3","action":"open"}]"#),
        ]
        for (route, body) in events {
            let answer = try await httpRequest(base.appendingPathComponent("v1/\(route)"), method: "POST", headers: headers, body: Data(body.utf8))
            #expect(answer.status < 300, "\(route): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func theFileAndTheServerGiveTheSameReport(kind: StoreKind) async throws {
        let store = try await Self.seeded(kind)
        let server = store.server
        let remote = ["--server", server.baseURL.absoluteString, "--token", server.adminToken]
        for control in [[], ["--control", "B"]] {
            for format in ["csv", "json", "table"] {
                let arguments = ["report", "variants", "--campaign", "spring sale", "--format", format] + control
                let local = try await runPushtally(arguments + store.arguments)
                let viaServer = try await runPushtally(arguments + remote)
                #expect(local.status == 0, "\(format): \(local.stderr)")
                #expect(viaServer.status == 0, "\(format): \(viaServer.stderr)")
                #expect(local.stdout == viaServer.stdout, "\(format) \(control)")
            }
        }
        // And the same as the HTTP API's own JSON; --control picks the control.
        let http = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/reports/campaigns/spring sale/variants"),
            headers: ["Authorization": "Bearer \(server.adminToken)"])
        let json = try await runPushtally(["report", "variants", "--campaign", "spring sale", "--format", "json"] + store.arguments)
        #expect(json.stdout == String(decoding: http.body, as: UTF8.self) + "\n")
        #expect(json.stdout.contains(#""control":"A""#) && json.stdout.contains(#""pushes_without_variant":1"#), "\(json.stdout)")
        let chosen = try await runPushtally(["report", "variants", "--campaign", "spring sale", "--control", "B", "--format", "json"] + remote)
        #expect(chosen.stdout.contains(#""control":"B""#), "\(chosen.stdout)")
        let csv = try await runPushtally(["report", "variants", "--campaign", "spring sale", "--format", "csv"] + store.arguments)
        let lines = csv.stdout.split(separator: "\r\n").map(String.init)
        #expect(lines.first?.hasPrefix("variant,control,pushes,sent,displayed,display_rate,display_rate_ci_low,") == true, "\(csv.stdout)")
        #expect(lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(6).joined(separator: ",") }
            == ["A,true,1,4,2,0.5", "B,false,1,4,3,0.75"])
        // An unknown control is a usage error (64) naming it; an unknown campaign is not found (3): locally and
        // remotely alike.
        for source in [store.arguments, remote] {
            let refused = try await runPushtally(["report", "variants", "--campaign", "spring sale", "--control", "Z"] + source)
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.stderr.contains("control Z"), "\(refused.stderr)")
            let missing = try await runPushtally(["report", "variants", "--campaign", "autumn"] + source)
            #expect(missing.status == 3, "\(missing.stderr)")
            #expect(missing.stderr.contains("autumn"))
        }
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    /// On a terminal the arms read as an experiment: rates as percents, lift, and p-values as numbers.
    @Test func aTerminalGetsATable() async throws {
        let store = try await Self.seeded(.sqlite)
        #expect(try await store.server.stop() == 0)
        let drawn = await TerminalOutputTests.withoutColour(
            try TerminalOutputTests.onTerminal(["report", "variants", "--campaign", "spring sale"] + store.arguments, columns: 160))
        let lines = drawn.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines == [
            "variant control sent displayed display rate lift p opened open rate open lift open p",
            "A yes 4 2 50.0% – – 1 50.0% – –",
            "B no 4 3 75.0% 50.0% 0.465 3 100.0% 100.0% 0.171",
        ], "\(drawn)")
        await store.cleanUp()
    }
}
