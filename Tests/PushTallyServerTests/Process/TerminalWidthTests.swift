import Foundation
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

/// Every table the CLI draws for people fits the window of the pseudo-terminal it draws on (its size set with
/// `TIOCSWINSZ`, no `COLUMNS`), on both stores; into a pipe the same commands print every column whole.
@Suite(.serialized) struct TerminalWidthTests {
    static let campaign = "Black Friday early access for returning customers in every European market"
    static let device = "install-4f1d-a-device-whose-timeline-is-drawn"

    /// A store holding variants of a long-named campaign, a device's receipts, taps and sessions from two app
    /// versions, a long-labelled key, a webhook with its deliveries and an alert; its server stopped.
    static func seeded(_ kind: StoreKind) async throws -> StoreServer {
        let store = try await StoreServer.start(kind, name: "tty-width", extraArguments: ["--allow-private-webhooks"])
        let server = store.server
        let admin = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        func send(_ method: String, _ path: String, _ body: String) async throws {
            let answer = try await httpRequest(server.baseURL.appendingPathComponent(path), method: method, headers: admin, body: Data(body.utf8))
            #expect(answer.status < 300, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
        }
        let hook = #"{"url":"http://127.0.0.1:9/receivers/pushtally/a-long-path-that-names-the-team-and-the-environment","#
            + #""events":["receipt.displayed"],"description":"the growth team's staging receiver, which logs every delivery it gets"}"#
        try await send("POST", "v1/webhooks", hook)
        for (id, variant) in [("a1", "A"), ("b1", "B")] {
            try await send("PUT", "v1/pushes/\(id)", #"{"campaign":"\#(campaign)","sent":1200,"variant":"\#(variant)"}"#)
        }
        let t = Int(Date().timeIntervalSince1970) - 3600
        for (route, body) in [
            ("receipts", #"[{"push_id":"a1","device_id":"\#(device)","app_version":"5.2.0","ts":\#(t)},"#
                + #"{"push_id":"b1","device_id":"\#(device)","app_version":"5.3.0-beta.1+build.20261125","ts":\#(t + 5)}]"#),
            ("actions", #"{"push_id":"b1","device_id":"\#(device)","action":"open","app_version":"5.2.0","ts":\#(t + 10)}"#),
            ("sessions", #"{"device_id":"\#(device)","session_id":"s1","ts":\#(t + 60)}"#),
        ] {
            try await send("POST", "v1/\(route)", body)
        }
        let alert = #"{"name":"receipts stopped for the Black Friday early access campaign","kind":"receipts_stopped","#
            + #""window":"1h","threshold":0.5,"min_sent":1,"campaign":"\#(campaign)","app":"com.example.shop.ios"}"#
        try await send("POST", "v1/alerts", alert)
        #expect(try await server.stop() == 0)
        let key = try await runPushtally(
            ["keys", "create", "--role", "read", "--label", "the marketing team's shared dashboard on the wall of the office"] + store.arguments)
        #expect(key.status == 0, "\(key.stderr)")
        return store
    }

    static func commands(_ store: StoreServer, webhook: String) -> [[String]] {
        [
            ["report", "campaigns"], ["report", "campaign", "--campaign", campaign], ["report", "variants", "--campaign", campaign],
            ["report", "timeseries"], ["report", "versions"], ["report", "attribution"], ["keys", "list"],
            ["webhooks", "list"], ["webhooks", "deliveries", webhook], ["alerts", "list"], ["device", "timeline", device],
        ].map { $0 + store.arguments }
    }

    @Test(arguments: StoreKind.allCases)
    func everyTableFitsTheWindowItIsDrawnIn(kind: StoreKind) async throws {
        let store = try await Self.seeded(kind)
        let listed = try await runPushtally(["webhooks", "list"] + store.arguments)
        let webhook = try #require(listed.stdout.split(separator: "\t").first.map(String.init), "\(listed.stderr)")
        for command in Self.commands(store, webhook: webhook) {
            for columns in [80, 100, 120] {
                let drawn = TerminalOutputTests.withoutColour(try await TerminalOutputTests.onTerminal(command, columns: columns))
                let lines = drawn.split(separator: "\n").map(String.init)
                // A header, and rows below it (an endpoint's deliveries may not be made yet: its header alone).
                #expect(lines.count >= (command[1] == "deliveries" ? 1 : 2), "\(command.prefix(2)) at \(columns): \(drawn)")
                for line in lines {
                    #expect(HumanTableRenderer.displayWidth(line) <= columns, "\(command.prefix(2)) at \(columns): \(line)")
                }
            }
        }
        // On a terminal, cut text ends in `…` while ids stay whole, as people copy them.
        let narrow = TerminalOutputTests.withoutColour(try await TerminalOutputTests.onTerminal(["webhooks", "list"] + store.arguments, columns: 80))
        let row = try #require(narrow.split(separator: "\n").dropFirst().first.map(String.init), "\(narrow)")
        #expect(row.hasPrefix(webhook + "  ") && row.contains("…"), "\(narrow)")
        // Into a pipe, a listing keeps every field whole, tab-separated, without a header.
        let keys = try await runPushtally(["keys", "list"] + store.arguments)
        #expect(keys.stdout.contains("\tthe marketing team's shared dashboard on the wall of the office\n"), "\(keys.stdout)")
        #expect(!keys.stdout.hasPrefix("id"))
        #expect(listed.stdout.contains("a-long-path-that-names-the-team-and-the-environment\t"), "\(listed.stdout)")
        let alerts = try await runPushtally(["alerts", "list"] + store.arguments)
        #expect(alerts.stdout.contains("campaign=\(Self.campaign) app=com.example.shop.ios"), "\(alerts.stdout)")
        let timeline = try await runPushtally(["device", "timeline", Self.device] + store.arguments)
        #expect(timeline.stdout.contains("5.3.0-beta.1+build.20261125"), "\(timeline.stdout)")
        await store.cleanUp()
    }
}
