import Foundation
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

@Suite(.serialized) struct MetricsTests {
    /// Metric names the Grafana dashboard queries (histogram series map back to their histogram).
    static func dashboardMetricNames() throws -> Set<String> {
        let data = try Data(contentsOf: PackageRoot.file("dashboards/grafana/pushtally.json"))
        let dashboard = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        var names: Set<String> = []
        for panel in panels {
            for target in panel["targets"] as? [[String: Any]] ?? [] {
                let expression = try #require(target["expr"] as? String)
                for match in expression.matches(of: /pushtally_[a-z_]+/) {
                    var name = String(match.0)
                    for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) { name = String(name.dropLast(suffix.count)) }
                    names.insert(name)
                }
            }
        }
        return names
    }

    @Test func everyMetricTheDashboardQueriesIsExported() async throws {
        let queried = try Self.dashboardMetricNames()
        #expect(queried.count >= 8)
        try await withApp(.live) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await client.json(.post, "/v1/receipts", #"[{"push_id":"m","device_id":"a"},{"push_id":"m","device_id":"a"},{"push_id":""}]"#)
            try await client.form("/v1/actions", "push_id=m&action=open")
            try await client.form("/v1/receipts", "device_id=nothing")
            try await client.json(.post, "/v1/sessions", #"[{"device_id":"a","session_id":"s"},{"device_id":"a","session_id":"s"}]"#)
            try await client.form("/v1/conversions", "device_id=a&event=buy")
            let response = try await client.send(.get, "/metrics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = response.text
            let exported = Set(text.split(separator: "\n").compactMap { line -> String? in
                guard !line.hasPrefix("#"), let name = line.split(whereSeparator: { $0 == "{" || $0 == " " }).first else { return nil }
                var metric = String(name)
                for suffix in ["_bucket", "_sum", "_count"] where metric.hasSuffix(suffix) { metric = String(metric.dropLast(suffix.count)) }
                return metric
            })
            for name in queried {
                #expect(exported.contains(name), "the dashboard queries \(name), which /metrics does not export")
            }
            #expect(text.contains(#"pushtally_events_rejected_total{reason="missing_field"}"#))
            #expect(text.contains(#"pushtally_events_ingested_total{kind="display"}"#))
            // Sessions and conversions count under their own kind, a session's retry as a duplicate.
            #expect(text.contains(#"pushtally_events_ingested_total{kind="session"}"#))
            #expect(text.contains(#"pushtally_duplicates_total{kind="session"}"#))
            #expect(text.contains(#"pushtally_events_ingested_total{kind="conversion"}"#))
            #expect(text.contains(#"route="/v1/receipts""#))
        }
    }

    @Test func rejectedRequestsAreLoggedWithoutSecrets() async throws {
        let server = try ServerProcess(extraArguments: ["--log-level", "info", "--require-ingest-key"])
        defer { server.removeFiles() }
        try await server.start()
        let secret = "pt_aaaaaaaaaaaa_" + String(repeating: "b", count: 64)
        let url = server.baseURL.appendingPathComponent("v1/receipts").appending(queryItems: [.init(name: "key", value: secret)])
        _ = try await httpRequest(
            url, method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data("push_id=1&device_id=install-secret-42".utf8))
        #expect(try await server.stop() == 0)
        let lines = server.log.split(separator: "\n").filter { $0.contains("rejected") }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("error=unauthorized") == true)
        #expect(lines.first?.contains("path=/v1/receipts") == true)
        #expect(!server.log.contains(secret))
        #expect(!server.log.contains("install-secret-42"))
    }
}
