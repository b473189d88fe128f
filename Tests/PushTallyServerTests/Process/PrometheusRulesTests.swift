import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// `dashboards/prometheus/alerts.yml`: valid for Prometheus, behaving as its unit tests say, and querying
/// only metrics a real collector exports.
@Suite struct PrometheusRulesTests {
    static let directory = PackageRoot.file("dashboards/prometheus")
    static let rules = directory.appendingPathComponent("alerts.yml")

    /// promtool from `PATH` (scripts/install-deps --test puts it in /usr/local/bin).
    static func promtool() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let found = path.split(separator: ":").map { "\($0)/promtool" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(found, "promtool is missing: scripts/install-deps --test installs it")
    }

    /// Runs promtool and fails the test with everything it printed unless it exits 0.
    static func expectPromtool(_ arguments: [String]) async throws {
        let run = try await runProcess(try promtool(), arguments, includingErrors: true)
        #expect(run.status == 0, "promtool \(arguments.joined(separator: " ")) failed:\n\(run.output)")
    }

    @Test func promtoolChecksTheRules() async throws {
        try await Self.expectPromtool(["check", "rules", Self.rules.path])
    }

    @Test func promtoolUnitTestsPass() async throws {
        try await Self.expectPromtool(["test", "rules", Self.directory.appendingPathComponent("alerts.test.yml").path])
    }

    /// Every `pushtally_` name in the rules, histogram series mapped back to their histogram.
    static func metricNames(in text: String) -> Set<String> {
        Set(text.matches(of: /pushtally_[a-z_]+/).map { match in
            var name = String(match.0)
            for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) { name = String(name.dropLast(suffix.count)) }
            return name
        })
    }

    /// The metric names of a Prometheus exposition (histogram series mapped back to their histogram).
    static func exportedNames(in exposition: String) -> Set<String> {
        Set(exposition.split(separator: "\n").compactMap { line -> String? in
            guard !line.hasPrefix("#"), let name = line.split(whereSeparator: { $0 == "{" || $0 == " " }).first else { return nil }
            return metricNames(in: String(name)).first
        })
    }

    @Test func everyMetricTheRulesNameIsExported() async throws {
        let named = Self.metricNames(in: try String(contentsOf: Self.rules, encoding: .utf8))
        #expect(named.isSuperset(of: ["pushtally_http_requests_total", "pushtally_writer_queue_high_water_mark", "pushtally_recent_pushes_sent"]))
        let server = try ServerProcess(extraArguments: ["--alert-interval", "0.2"])
        defer { server.removeFiles() }
        try await server.start()
        // `pushtally_alert_firing` has a series per alert, once the alert is evaluated.
        let alert = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/alerts"), method: "POST",
            headers: ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"],
            body: Data(#"{"name": "quiet", "kind": "receipts_stopped", "window": "1h", "threshold": 0.2, "min_sent": 100}"#.utf8))
        #expect(alert.status == 201)
        try await Task.sleep(for: .seconds(1))
        // Labelled counters appear once something is counted: one stored receipt, one refused.
        let receipts = server.baseURL.appendingPathComponent("v1/receipts")
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        #expect(try await httpRequest(receipts, method: "POST", headers: form, body: Data("push_id=m&device_id=a".utf8)).status == 204)
        #expect(try await httpRequest(receipts, method: "POST", headers: form, body: Data("device_id=a".utf8)).status == 400)
        // The export gauges have a series per reader of the event feed, once it has read.
        let feed = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/events"), headers: ["Authorization": "Bearer \(server.adminToken)"])
        #expect(feed.status == 200)
        let metrics = try await httpRequest(server.baseURL.appendingPathComponent("metrics"))
        let exported = Self.exportedNames(in: String(decoding: metrics.body, as: UTF8.self))
        for name in named.sorted() {
            #expect(exported.contains(name), "alerts.yml names \(name), which /metrics does not export")
        }
        #expect(try await server.stop() == 0)
    }

    /// One push of the display-rate test: when it was sent relative to now, and what it got.
    struct SeededPush {
        let id: String
        let minutesAgo: Int?
        let sent: Int
        let devices: [String]
        /// Receipts of pushes without `sent_at` carry this age as their `ts`, so their first event falls in the window.
        var receiptMinutesAgo = 0
    }

    @Test(arguments: StoreKind.allCases)
    func recentPushGaugesAreTheRecountOfTheWindow(_ kind: StoreKind) async throws {
        let running = try await StoreServer.start(kind, name: "recent-gauges")
        do {
            try await checkRecentPushGauges(running.server)
        } catch {
            await running.cleanUp()
            throw error
        }
        await running.cleanUp()
    }

    func checkRecentPushGauges(_ server: ServerProcess) async throws {
        let nowMillis = Int64(Date().timeIntervalSince1970 * 1000)
        let pushes = [
            SeededPush(id: "half-hour", minutesAgo: 30, sent: 120, devices: ["a", "b", "c", "c"]),
            SeededPush(id: "fifty-minutes", minutesAgo: 50, sent: 80, devices: ["d", "e"]),
            SeededPush(id: "two-minutes", minutesAgo: 2, sent: 1000, devices: ["f", "g", "h"]),
            SeededPush(id: "two-hours", minutesAgo: 120, sent: 1000, devices: ["i", "j"]),
            SeededPush(id: "no-sent-at", minutesAgo: nil, sent: 500, devices: ["k"], receiptMinutesAgo: 30),
        ]
        let auth = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        var receipts: [String] = []
        for push in pushes {
            let sentAt = push.minutesAgo.map { #","sent_at":"\#(Timestamp.iso8601(millis: nowMillis - Int64($0) * 60_000))""# } ?? ""
            let registered = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/pushes/\(push.id)"), method: "PUT", headers: auth,
                body: Data(#"{"campaign":"c","sent":\#(push.sent)\#(sentAt)}"#.utf8))
            #expect(registered.status == 201)
            let ts = (nowMillis - Int64(push.receiptMinutesAgo) * 60_000) / 1000
            receipts += push.devices.map { #"{"push_id":"\#(push.id)","device_id":"\#($0)","ts":\#(ts)}"# }
        }
        // An orphan in the window: receipts, no registration, so no sends.
        receipts.append(#"{"push_id":"orphan","device_id":"z","ts":\#((nowMillis - 30 * 60_000) / 1000)}"#)
        let posted = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data("[\(receipts.joined(separator: ","))]".utf8))
        #expect(posted.status == 200)

        // The recount: pushes sent 5 minutes to an hour ago, their sends and their distinct devices.
        let recent = pushes.filter { push in push.minutesAgo.map { (5...59).contains($0) } ?? false }
        let expectedSent = recent.map(\.sent).reduce(0, +)
        let expectedDisplayed = recent.map { Set($0.devices).count }.reduce(0, +)
        // The seeds tell the window's edges, pushes without sent_at and retries apart.
        #expect(expectedSent == 200)
        #expect(expectedDisplayed == 5)

        let metrics = try await httpRequest(server.baseURL.appendingPathComponent("metrics"))
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(Self.value(of: "pushtally_recent_pushes_sent", in: text) == Double(expectedSent), "\(text)")
        #expect(Self.value(of: "pushtally_recent_pushes_displayed", in: text) == Double(expectedDisplayed))
        #expect(Self.value(of: "pushtally_writer_queue_high_water_mark", in: text) == Double(StoreConfiguration().writerHighWaterMark))
        #expect(try await server.stop() == 0)
    }

    /// The value of an unlabelled series in a Prometheus exposition.
    static func value(of name: String, in exposition: String) -> Double? {
        exposition.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }
}
