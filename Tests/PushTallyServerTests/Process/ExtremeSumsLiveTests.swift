import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// Every sum the collector keeps or computes fed its extreme through a real `pushtally serve`: each is exact,
/// or the request (or the one report) that would pass 64 bits is refused naming the field; the process lives.
@Suite struct ExtremeSumsLiveTests {
    static func json(_ object: Any) -> Data { try! JSONSerialization.data(withJSONObject: object) }

    static func send(
        _ server: ServerProcess, _ method: String, _ path: String, _ body: Any? = nil, token: String? = nil
    ) async throws -> (status: Int, text: String) {
        var headers = ["Content-Type": "application/json"]
        if let token = token ?? (server.adminToken.isEmpty ? nil : server.adminToken) { headers["Authorization"] = "Bearer \(token)" }
        let answer = try await httpRequest(
            URL(string: "\(server.baseURL.absoluteString)/\(path)")!, method: method, headers: headers, body: body.map(json))
        return (answer.status, String(decoding: answer.body, as: UTF8.self))
    }

    static func expectAlive(_ server: ServerProcess, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await Self.send(server, "GET", "healthz").status == 200, sourceLocation: sourceLocation)
        #expect(server.process.isRunning, "the collector ended: \(server.log.suffix(2000))", sourceLocation: sourceLocation)
    }

    /// 9,300 conversions of a billion units pass 64 bits of millionths in every row they share; the total is
    /// kept exact (9.3 × 10^12 units), anonymous posts included, and reads back after a restart.
    @Test(arguments: StoreKind.allCases)
    func conversionValuesPastSixtyFourBitsOfMillionthsAddUpExactly(_ kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "extreme-values")
        defer { Task { await store.cleanUp() } }
        let server = store.server
        let conversions = (0..<9_300).map { index in
            ["device_id": "d\(index % 50)", "event": "purchase", "value": 1_000_000_000, "currency": "VND", "conversion_id": "c\(index)"]
                as [String: Any]
        }
        for chunk in stride(from: 0, to: conversions.count, by: 3_100) {
            let answer = try await Self.send(server, "POST", "v1/conversions", Array(conversions[chunk..<(chunk + 3_100)]), token: "")
            #expect(answer.status == 200, "\(answer.text)")
        }
        try await Self.expectAlive(server)
        let totals = try await Self.send(server, "GET", "v1/reports/attribution")
        #expect(totals.text.contains(#""unattributed_conversion_value":{"VND":9300000000000}"#), "\(totals.text)")
        #expect(totals.text.contains(#""unattributed_conversions":9300"#), "\(totals.text)")
        // One more of 0.000001: the parts carry exactly.
        _ = try await Self.send(
            server, "POST", "v1/conversions",
            ["device_id": "d1", "event": "purchase", "value": "0.000001", "currency": "VND", "conversion_id": "last"], token: "")
        let after = try await Self.send(server, "GET", "v1/reports/attribution?format=csv")
        #expect(after.text.contains("9300000000000.000001"), "\(after.text)")
        // What a rebuild from the raw events counts is what ingest kept.
        #expect(try await runPushtally(["rollup", "rebuild"] + store.arguments).status == 0)
        let rebuilt = try await Self.send(server, "GET", "v1/reports/attribution?format=csv")
        #expect(rebuilt.text == after.text)
        try await Self.expectAlive(server)
        _ = try await server.stop()
    }

    /// A push's send figures are bounded at 10^15 over all its records (10,000 failure reasons of 10^15 in one
    /// record, or batches that add up past it): refused naming the field, nothing written.
    @Test(arguments: StoreKind.allCases)
    func sendFiguresPastTheirBoundAreRefusedNamingTheField(_ kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "extreme-sends")
        defer { Task { await store.cleanUp() } }
        let server = store.server
        let reasons = Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("Reason\($0)", 1_000_000_000_000_000) })
        let many = try await Self.send(server, "PUT", "v1/pushes/x", ["campaign": "c", "sent": 1, "failed": reasons])
        #expect(many.status == 400 && many.text.contains(#""field":"failed""#), "\(many.text)")
        #expect(try await Self.send(server, "GET", "v1/reports/pushes/x").status == 404)
        // Parallel senders: two batches of 6 × 10^14 pass 10^15 together; the second is refused whole.
        let first = try await Self.send(server, "POST", "v1/pushes/y/sends", ["campaign": "c", "batch_id": "a", "sent": 600_000_000_000_000])
        #expect(first.status < 300, "\(first.text)")
        let second = try await Self.send(server, "POST", "v1/pushes/y/sends", ["batch_id": "b", "sent": 600_000_000_000_000])
        #expect(second.status == 400 && second.text.contains(#""field":"sent""#), "\(second.text)")
        // Replacing the first batch is not adding to it.
        let replaced = try await Self.send(server, "POST", "v1/pushes/y/sends", ["batch_id": "a", "sent": 900_000_000_000_000])
        #expect(replaced.status < 300, "\(replaced.text)")
        let report = try await Self.send(server, "GET", "v1/reports/pushes/y")
        #expect(report.text.contains(#""sent":900000000000000"#), "\(report.text)")
        try await Self.expectAlive(server)
        _ = try await server.stop()
    }

    /// 9,300 pushes of 10^15 in one campaign: each push is fine, the campaign's sum is not. The campaign list
    /// answers 422 naming `sent` (the CLI's too), while its drill-down and one push still read; an alert over
    /// them is skipped with a warning instead of ending the process.
    @Test(arguments: StoreKind.allCases)
    func aCampaignWhoseSumsPassSixtyFourBitsIsAnErrorAnswerNotTheEnd(_ kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "extreme-campaign", extraArguments: ["--alert-interval", "1"])
        defer { Task { await store.cleanUp() } }
        let server = store.server
        let sentAt = Timestamp.iso8601(millis: Int64(Date().timeIntervalSince1970 * 1000) - 3_600_000)
        let alert = try await Self.send(
            server, "POST", "v1/alerts",
            ["name": "stopped", "kind": "receipts_stopped", "window": "2h", "threshold": 0.2, "min_sent": 1, "grace": "5m"])
        #expect(alert.status == 201, "\(alert.text)")
        // Batches of 300: the test is about the campaign's sum, and a debug build's PostgreSQL registrations of
        // 1,000 records at once can pass the request deadline on a crowded machine.
        for chunk in stride(from: 0, to: 9_300, by: 300) {
            let records = (chunk..<min(chunk + 300, 9_300)).map {
                ["push_id": "p\($0)", "campaign": "big", "sent": 1_000_000_000_000_000, "sent_at": sentAt] as [String: Any]
            }
            let answer = try await Self.send(server, "POST", "v1/pushes", records)
            #expect(answer.status == 200 && answer.text.contains(#""rejected":[]"#), "\(answer.text.prefix(300))")
        }
        let campaigns = try await Self.send(server, "GET", "v1/reports/campaigns")
        #expect(campaigns.status == 422, "\(campaigns.text)")
        #expect(campaigns.text.contains(#""error":"total_out_of_range""#) && campaigns.text.contains(#""field":"sent""#))
        // The drill-down lists the pushes one by one, and one push reads: nothing there adds them all up.
        #expect(try await Self.send(server, "GET", "v1/reports/campaigns/big?format=csv").status == 200)
        #expect(try await Self.send(server, "GET", "v1/reports/pushes/p1").status == 200)
        let cli = try await runPushtally(["report", "campaigns"] + store.arguments)
        #expect(cli.status != 0 && cli.stderr.contains("sent adds up to more than"), "\(cli.stderr)")
        // Alert rounds run every second: wait for one to have judged the rule (and skipped it).
        let deadline = Date().addingTimeInterval(20)
        while !server.log.contains("alert not evaluated"), Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(server.log.contains("alert not evaluated"), "\(server.log.suffix(2000))")
        try await Self.expectAlive(server)
        _ = try await server.stop()
    }
}
