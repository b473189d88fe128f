import CompressNIO
import Foundation
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// `POST /v1/sessions` and `POST /v1/conversions` take every body shape receipts take, answer as receipts do,
/// and count a retry once, through the router and the fast path into each store.
@Suite struct OutcomeRouteTests {
    /// An event time an hour ago: inside the 7 days a device's clock is believed.
    static var anHourAgo: Int { Int(Date().timeIntervalSince1970) - 3600 }

    @Test(arguments: IngestTarget.all) func sessionsInEveryShape(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let ts = Self.anHourAgo
            let form = try await client.form("/v1/sessions", "device_id=d1&session_id=s1&ts=\(ts)&app=com.example&app_version=2.1")
            #expect(form.status == .noContent, "\(form.text)")
            #expect(form.body.readableBytes == 0)
            let object = try await client.json(.post, "/v1/sessions", #"{"device_id":"d2","session_id":"s2","ts":\#(ts)}"#)
            #expect(object.status == .noContent, "\(object.text)")
            let array = try await client.json(
                .post, "/v1/sessions",
                #"[{"device_id":"d3","session_id":"s3"},{"device_id":"d3","session_id":"s3"},{"device_id":"d4"},{"device_id":"d4","session_id":4}]"#)
            #expect(array.status == .ok)
            #expect(array.object["accepted"] as? Int == 3)
            #expect(array.object["duplicates"] as? Int == 1)
            let rejected = try #require(array.object["rejected"] as? [[String: Any]])
            #expect(rejected.count == 1)
            #expect(rejected.first?["index"] as? Int == 2)
            #expect(rejected.first?["field"] as? String == "session_id")
            #expect(rejected.first?["error"] as? String == "missing_field")
            let ndjson = try await client.send(
                .post, "/v1/sessions", headers: [.contentType: "application/x-ndjson"],
                body: "{\"device_id\":\"d5\",\"session_id\":\"s5\"}\nnot json\n")
            #expect(ndjson.status == .ok)
            #expect(ndjson.object["accepted"] as? Int == 1)
            #expect((ndjson.object["rejected"] as? [[String: Any]])?.first?["index"] as? Int == 1)
            var lines = ByteBuffer(string: (0..<50).map { "{\"device_id\":\"g\($0)\",\"session_id\":\"s\"}" }.joined(separator: "\n"))
            let gzip = try await client.execute(
                uri: "/v1/sessions", method: .post,
                headers: [.contentType: "application/x-ndjson", .contentEncoding: "gzip"], body: try lines.compress(with: .gzip()))
            #expect(gzip.status == .ok)
            #expect(gzip.object["accepted"] as? Int == 50)
            // d1, d2, d3 (once), d4, d5 and 50 gzipped: nothing to credit them to, so all unattributed.
            let totals = try await attributionTotals(client, fixture)
            #expect(totals["sessions"] as? Int == 55, "\(totals)")
            #expect(totals["unattributed_sessions"] as? Int == 55)
        }
    }

    @Test(arguments: IngestTarget.all) func conversionsInEveryShape(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let form = try await client.form(
                "/v1/conversions", "device_id=d1&event=purchase&value=9.99&currency=USD&conversion_id=c1&ts=\(Self.anHourAgo)")
            #expect(form.status == .noContent, "\(form.text)")
            let object = try await client.json(.post, "/v1/conversions", #"{"device_id":"d2","event":"signup"}"#)
            #expect(object.status == .noContent, "\(object.text)")
            let array = try await client.json(
                .post, "/v1/conversions",
                #"[{"device_id":"d3","event":"purchase","value":0.5,"currency":"usd","conversion_id":"c3"},"#
                    + #"{"device_id":"d3","event":"purchase","value":0.5,"currency":"usd","conversion_id":"c3"},"#
                    + #"{"device_id":"d4","event":"purchase","value":"2","currency":"EUR"},{"device_id":"d4"}]"#)
            #expect(array.status == .ok)
            #expect(array.object["accepted"] as? Int == 3)
            #expect(array.object["duplicates"] as? Int == 1)
            let rejected = try #require(array.object["rejected"] as? [[String: Any]])
            #expect(rejected.map { $0["index"] as? Int } == [3])
            #expect(rejected.first?["field"] as? String == "event")
            let ndjson = try await client.send(
                .post, "/v1/conversions", headers: [.contentType: "application/x-ndjson"],
                body: "{\"device_id\":\"d5\",\"event\":\"e\",\"value\":1,\"currency\":\"USD\"}\n")
            #expect(ndjson.status == .ok)
            #expect(ndjson.object["accepted"] as? Int == 1)
            var gzipped = ByteBuffer(string: #"{"device_id":"d6","event":"purchase","value":"10","currency":"JPY"}"#)
            let gzip = try await client.execute(
                uri: "/v1/conversions", method: .post,
                headers: [.contentType: "application/json", .contentEncoding: "gzip"], body: try gzipped.compress(with: .gzip()))
            #expect(gzip.status == .noContent)
            let totals = try await attributionTotals(client, fixture)
            #expect(totals["unattributed_conversions"] as? Int == 6, "\(totals)")
            #expect(totals["conversions"] as? Int == 0)
            // 9.99 + 0.5 (once, and `usd` is USD) + 1; the value is exact decimal, not 11.490000000000002.
            let values = try #require(totals["unattributed_conversion_value"] as? [String: Any])
            #expect((values["USD"] as? NSNumber)?.doubleValue == 11.49, "\(values)")
            #expect(values["EUR"] as? Int == 2)
            #expect(values["JPY"] as? Int == 10)
        }
    }

    /// A client that did not hear the answer sends the same event again: it is stored as a duplicate and counts once.
    @Test(arguments: IngestTarget.all) func aRetryCountsOnce(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            for _ in 0..<3 {
                #expect(try await client.form("/v1/sessions", "device_id=d1&session_id=s1").status == .noContent)
                #expect(try await client.form("/v1/conversions", "device_id=d1&event=buy&value=3&currency=USD&conversion_id=c1").status == .noContent)
            }
            let batch = try await client.json(.post, "/v1/sessions", #"[{"device_id":"d1","session_id":"s1"}]"#)
            #expect(batch.object["accepted"] as? Int == 1)
            #expect(batch.object["duplicates"] as? Int == 1)
            let conversions = try await client.json(
                .post, "/v1/conversions", #"[{"device_id":"d1","event":"buy","value":3,"currency":"USD","conversion_id":"c1"}]"#)
            #expect(conversions.object["duplicates"] as? Int == 1)
            let totals = try await attributionTotals(client, fixture)
            #expect(totals["sessions"] as? Int == 1, "\(totals)")
            #expect(totals["unattributed_conversions"] as? Int == 1)
            #expect((totals["unattributed_conversion_value"] as? [String: Any])?["USD"] as? Int == 3)
        }
    }

    /// Every bad field is a 400 with receipts' JSON error shape, naming the field; nothing is stored.
    @Test(arguments: IngestTarget.all, [
        ("/v1/sessions", "session_id=s1", "missing_field", "device_id"),
        ("/v1/sessions", "device_id=d1", "missing_field", "session_id"),
        ("/v1/sessions", "device_id=d1&session_id=", "missing_field", "session_id"),
        ("/v1/sessions", "device_id=d1&session_id=s1&ts=yesterday", "bad_timestamp", "ts"),
        ("/v1/sessions", "device_id=d1&session_id=" + String(repeating: "s", count: 129), "too_long", "session_id"),
        ("/v1/sessions", "device_id=" + String(repeating: "d", count: 129) + "&session_id=s1", "too_long", "device_id"),
        ("/v1/sessions", "device_id=d1&session_id=s1&app=" + String(repeating: "a", count: 129), "too_long", "app"),
        ("/v1/conversions", "event=buy", "missing_field", "device_id"),
        ("/v1/conversions", "device_id=d1", "missing_field", "event"),
        ("/v1/conversions", "device_id=d1&event=buy&value=9.99", "missing_field", "currency"),
        ("/v1/conversions", "device_id=d1&event=buy&currency=USD", "missing_field", "value"),
        ("/v1/conversions", "device_id=d1&event=buy&value=1&currency=XYZ", "invalid_currency", "currency"),
        ("/v1/conversions", "device_id=d1&event=buy&value=-1&currency=USD", "invalid_value", "value"),
        ("/v1/conversions", "device_id=d1&event=buy&value=abc&currency=USD", "invalid_value", "value"),
        ("/v1/conversions", "device_id=d1&event=buy&value=1e3&currency=USD", "invalid_value", "value"),
        ("/v1/conversions", "device_id=d1&event=buy&value=1000000000.01&currency=USD", "invalid_value", "value"),
        ("/v1/conversions", "device_id=d1&event=buy&ts=2026-13-01T00:00:00Z", "bad_timestamp", "ts"),
        ("/v1/conversions", "device_id=d1&event=" + String(repeating: "e", count: 65), "too_long", "event"),
        ("/v1/conversions", "device_id=d1&event=buy&conversion_id=" + String(repeating: "c", count: 129), "too_long", "conversion_id"),
    ] as [(String, String, String, String)])
    func refusesBadFormFields(_ target: IngestTarget, _ input: (route: String, body: String, code: String, field: String)) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let response = try await client.form(input.route, input.body)
            try Self.expectFieldError(response, status: 400, code: input.code, field: input.field)
            #expect(try await fixture.store.rawEventCount() == 0)
        }
    }

    /// The same refusals for JSON bodies, where values have types of their own.
    @Test(arguments: IngestTarget.all, [
        ("/v1/sessions", #"{"device_id":"d1","session_id":true}"#, "bad_type", "session_id"),
        ("/v1/sessions", #"{"device_id":"d1","session_id":"s1","ts":"soon"}"#, "bad_timestamp", "ts"),
        ("/v1/conversions", #"{"device_id":"d1","event":"buy","value":-0.01,"currency":"USD"}"#, "invalid_value", "value"),
        ("/v1/conversions", #"{"device_id":"d1","event":"buy","value":1000000001,"currency":"USD"}"#, "invalid_value", "value"),
        ("/v1/conversions", #"{"device_id":"d1","event":"buy","value":[1],"currency":"USD"}"#, "bad_type", "value"),
        ("/v1/conversions", #"{"device_id":"d1","event":"buy","value":1,"currency":"XYZ"}"#, "invalid_currency", "currency"),
        ("/v1/conversions", #"{"device_id":"d1","event":"buy","value":1}"#, "missing_field", "currency"),
    ] as [(String, String, String, String)])
    func refusesBadJSONFields(_ target: IngestTarget, _ input: (route: String, body: String, code: String, field: String)) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let response = try await client.json(.post, input.route, input.body)
            try Self.expectFieldError(response, status: 400, code: input.code, field: input.field)
            #expect(try await fixture.store.rawEventCount() == 0)
        }
    }

    /// Under `--require-ingest-key` both routes take an ingest key or a backend token, never a read token.
    @Test(arguments: IngestPath.allCases) func requireIngestKeyTakesIngestAndBackendTokens(_ path: IngestPath) async throws {
        let configuration = ServerConfiguration(port: 0, requireIngestKey: true)
        try await withApp(path.setup, configuration: configuration) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            for (route, body) in [("/v1/sessions", "device_id=d1&session_id=s"), ("/v1/conversions", "device_id=d1&event=e&conversion_id=c")] {
                let none = try await client.form(route, body)
                try Self.expectFieldError(none, status: 401, code: "unauthorized", field: nil)
                #expect(none.headers[.wwwAuthenticate] == "Bearer")
                try Self.expectFieldError(try await client.form(route, body, headers: fixture.bearer(.read)), status: 403, code: "forbidden", field: nil)
                #expect(try await client.form(route, body, headers: fixture.bearer(.ingest)).status == .noContent)
                #expect(try await client.form(route, body, headers: fixture.bearer(.backend)).status == .noContent)
                #expect(try await client.form(route, body, headers: fixture.bearer(.admin)).status == .noContent)
                #expect(try await client.form("\(route)?key=\(fixture.tokens[.ingest]!)", body).status == .noContent)
            }
            // Four accepted posts a route, one event each: the first stored, three duplicates.
            let totals = try await attributionTotals(client, fixture)
            #expect(totals["sessions"] as? Int == 1, "\(totals)")
            #expect(totals["unattributed_conversions"] as? Int == 1)
        }
    }

    /// A JSON error as receipts answer it: `{"error", "message", "field"}`, `field` left out when none is at fault.
    static func expectFieldError(_ response: TestResponse, status: Int, code: String, field: String?) throws {
        #expect(response.status.code == status, "\(response.status) \(response.text)")
        #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
        let object = response.object
        #expect(object["error"] as? String == code, "\(response.text)")
        #expect(object["field"] as? String == field, "\(response.text)")
        #expect((object["message"] as? String)?.isEmpty == false)
        #expect(Set(object.keys).isSubset(of: ["error", "message", "field"]), "\(response.text)")
    }
}

/// The one row of `GET /v1/reports/attribution` (all time), as JSON.
func attributionTotals(_ client: any TestClientProtocol, _ fixture: TestFixture, query: String = "") async throws -> [String: Any] {
    let response = try await client.send(.get, "/v1/reports/attribution\(query)", headers: fixture.bearer(.read))
    #expect(response.status == .ok, "\(response.text)")
    return (response.object["attribution"] as? [[String: Any]])?.first ?? [:]
}
