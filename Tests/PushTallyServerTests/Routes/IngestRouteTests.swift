import CompressNIO
import Foundation
import PushTallyTestSupport
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import Testing

@testable import PushTallyServer

@Suite struct IngestRouteTests {
    @Test(arguments: IngestTarget.all) func acceptsTheExtensionsFormReceipt(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let response = try await client.send(
                .post, "/v1/receipts",
                headers: [
                    .contentType: "application/x-www-form-urlencoded", .userAgent: "Wendercast/1 CFNetwork/1410.0.3 Darwin/22.6.0",
                ],
                body: "push_id=2018001")
            #expect(response.status == .noContent)
            #expect(response.body.readableBytes == 0)
            let push = try #require(try await fixture.store.pushFigures().first)
            #expect(push.pushID == "2018001")
            #expect(push.funnel.displayed == 1)
        }
    }

    @Test(arguments: IngestTarget.all) func acceptsEveryOptionalField(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let response = try await client.form(
                "/v1/receipts",
                "push_id=p1&device_id=install-1&receipt_id=r1&ts=2026-11-20T08%3A00%3A00Z&platform=ios&app_version=2.1&os_version=18.1")
            #expect(response.status == .noContent)
            let again = try await client.form("/v1/receipts", "push_id=p1&device_id=install-1&receipt_id=r1")
            #expect(again.status == .noContent)
            let funnel = try #require(try await fixture.store.pushFigures().first).funnel
            #expect(funnel.displayed == 2)
            #expect(funnel.duplicates == 1)
        }
    }

    @Test(arguments: IngestTarget.all) func acceptsAJSONObjectAsOneReceipt(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let response = try await client.json(.post, "/v1/receipts", #"{"push_id": "p1", "ts": 1795000000}"#)
            #expect(response.status == .noContent)
            #expect(try await fixture.store.pushFigures().first?.funnel.displayed == 1)
        }
    }

    @Test(arguments: IngestTarget.all) func answersBatchesWithAcceptedDuplicatesAndRejected(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let response = try await client.json(
                .post, "/v1/receipts",
                #"[{"push_id":"p1","receipt_id":"a"},{"push_id":"p1","receipt_id":"a"},{"device_id":"x"},{"push_id":"p2"}]"#)
            #expect(response.status == .ok)
            #expect(response.object["accepted"] as? Int == 3)
            #expect(response.object["duplicates"] as? Int == 1)
            let rejected = try #require(response.object["rejected"] as? [[String: Any]])
            #expect(rejected.count == 1)
            #expect(rejected[0]["index"] as? Int == 2)
            #expect(rejected[0]["field"] as? String == "push_id")
            #expect(rejected[0]["error"] as? String == "missing_field")
            #expect(try await fixture.store.pushFigures().map(\.funnel.displayed) == [2, 1])
        }
    }

    @Test(arguments: IngestTarget.all) func acceptsNDJSON(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let body = "{\"push_id\":\"p1\"}\n{\"push_id\":\"p1\",\"device_id\":\"d\"}\nnot json\n"
            let response = try await client.send(.post, "/v1/receipts", headers: [.contentType: "application/x-ndjson"], body: body)
            #expect(response.status == .ok)
            #expect(response.object["accepted"] as? Int == 2)
            #expect((response.object["rejected"] as? [[String: Any]])?.first?["index"] as? Int == 2)
        }
    }

    @Test(arguments: IngestTarget.all) func batchWithNothingAcceptedIs400WithTheSameBody(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, _: TestFixture) async throws in
            for body in [#"[{"push_id": ""}]"#, "[]"] {
                let response = try await client.json(.post, "/v1/receipts", body)
                #expect(response.status == .badRequest)
                #expect(response.object["accepted"] as? Int == 0)
            }
        }
    }

    @Test(arguments: IngestTarget.all) func inflatesGzipBodies(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let lines = (0..<500).map { "{\"push_id\":\"p1\",\"receipt_id\":\"r\($0)\"}" }.joined(separator: "\n")
            var buffer = ByteBuffer(string: lines)
            let gzipped = try buffer.compress(with: .gzip())
            let response = try await client.execute(
                uri: "/v1/receipts", method: .post,
                headers: [.contentType: "application/x-ndjson", .contentEncoding: "gzip"], body: gzipped)
            #expect(response.status == .ok)
            #expect(response.object["accepted"] as? Int == 500)
            #expect(try await fixture.store.pushFigures().first?.funnel.displayed == 500)
        }
    }

    @Test(arguments: IngestTarget.all) func recordsActionsWithApplesIdentifiersMapped(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            #expect(try await client.form("/v1/actions", "push_id=p1&action=com.apple.UNNotificationDefaultActionIdentifier").status == .noContent)
            #expect(try await client.form("/v1/actions", "push_id=p1&action=com.apple.UNNotificationDismissActionIdentifier").status == .noContent)
            #expect(try await client.json(.post, "/v1/actions", #"{"push_id":"p1","action":"favorite"}"#).status == .noContent)
            let missing = try await client.form("/v1/actions", "push_id=p1")
            #expect(missing.status == .badRequest)
            #expect(missing.errorField == "action")
            let funnel = try #require(try await fixture.store.pushFigures().first).funnel
            #expect(funnel.opened == 1)
            #expect(funnel.dismissed == 1)
            #expect(funnel.customActions == ["favorite": 1])
        }
    }

    /// Every bad input gets a 4xx with a JSON error naming what was wrong; nothing is stored.
    @Test(arguments: IngestTarget.all, [
        ("application/x-www-form-urlencoded", "device_id=x", 400, "missing_field", "push_id"),
        ("application/x-www-form-urlencoded", "push_id=", 400, "missing_field", "push_id"),
        ("application/x-www-form-urlencoded", "push_id=" + String(repeating: "x", count: 129), 400, "too_long", "push_id"),
        ("application/x-www-form-urlencoded", "push_id=1&ts=yesterday", 400, "bad_timestamp", "ts"),
        ("application/x-www-form-urlencoded", "push_id=%ZZ", 400, "malformed_form", nil),
        ("application/x-www-form-urlencoded", "push_id=%FF", 400, "invalid_utf8", nil),
        ("application/x-www-form-urlencoded", "push_id=a%00b", 400, "invalid_characters", "push_id"),
        ("application/json", "{\"push_id\":", 400, "malformed_json", nil),
        ("application/json", "{\"push_id\": [1]}", 400, "bad_type", "push_id"),
        ("application/json", "\"push_id\"", 400, "malformed_json", nil),
        ("text/plain", "push_id=1", 415, "unsupported_media_type", nil),
        ("application/xml", "<push_id>1</push_id>", 415, "unsupported_media_type", nil),
    ] as [(String, String, Int, String, String?)])
    func rejectsBadInputWithAJSONError(_ target: IngestTarget, _ input: (contentType: String, body: String, status: Int, code: String, field: String?)) async throws {
        let (contentType, body, status, code, field) = input
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let response = try await client.send(.post, "/v1/receipts", headers: [.contentType: contentType], body: body)
            #expect(response.status.code == status)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(response.errorCode == code)
            #expect(response.errorField == field)
            #expect((response.object["message"] as? String)?.isEmpty == false)
            #expect(try await fixture.store.pushFigures().isEmpty)
        }
    }

    @Test(arguments: IngestTarget.all) func refusesBodiesOverTheLimitOnTheWireAndAfterInflation(_ target: IngestTarget) async throws {
        let configuration = ServerConfiguration(port: 0, maxBodyBytes: 64 * 1024)
        try await withApp(target, configuration: configuration) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let big = try await client.form("/v1/receipts", "push_id=1&pad=" + String(repeating: "x", count: 70 * 1024))
            #expect(big.status == .contentTooLarge)
            #expect(big.errorCode == "body_too_large")
            // A gzip bomb: 10 MB of zeros compress to ~10 KB, under the limit, but inflate far past it.
            var zeros = ByteBuffer(repeating: UInt8(ascii: "0"), count: 10 << 20)
            let bomb = try zeros.compress(with: .gzip())
            #expect(bomb.readableBytes < 64 * 1024)
            let response = try await client.execute(
                uri: "/v1/receipts", method: .post,
                headers: [.contentType: "application/x-ndjson", .contentEncoding: "gzip"], body: bomb)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "body_too_large")
            #expect(try await fixture.store.pushFigures().isEmpty)
        }
    }

    @Test(arguments: IngestTarget.all) func rejectsCorruptGzipAndUnknownEncodings(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, _: TestFixture) async throws in
            let corrupt = try await client.send(
                .post, "/v1/receipts", headers: [.contentType: "application/json", .contentEncoding: "gzip"], body: "not gzip")
            #expect(corrupt.status == .badRequest)
            #expect(corrupt.errorCode == "malformed_gzip")
            let brotli = try await client.send(
                .post, "/v1/receipts", headers: [.contentType: "application/json", .contentEncoding: "br"], body: "{}")
            #expect(brotli.status == .unsupportedMediaType)
        }
    }

    @Test(arguments: IngestTarget.all) func refusesOversizedBatches(_ target: IngestTarget) async throws {
        try await withApp(target, configuration: ServerConfiguration(port: 0, maxBatchEvents: 3)) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let response = try await client.json(.post, "/v1/receipts", "[" + Array(repeating: #"{"push_id":"p"}"#, count: 4).joined(separator: ",") + "]")
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "batch_too_large")
            #expect(try await fixture.store.pushFigures().isEmpty)
        }
    }

    @Test(arguments: IngestTarget.all) func wrongMethodIs405WithAllow(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, _: TestFixture) async throws in
            let response = try await client.send(.get, "/v1/receipts")
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "POST")
            #expect(response.errorCode == "method_not_allowed")
            let delete = try await client.send(.delete, "/v1/pushes/p1")
            #expect(delete.status == .methodNotAllowed)
            #expect(delete.headers[.allow] == "PUT")
        }
    }

    @Test(arguments: IngestTarget.all) func unknownRoutesAreJSON404s(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, _: TestFixture) async throws in
            let response = try await client.send(.get, "/v2/nothing")
            #expect(response.status == .notFound)
            #expect(response.errorCode == "not_found")
        }
    }

    @Test(arguments: IngestTarget.all) func storesSQLAndFormulaTextLiterally(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let nasty = "'); DROP TABLE events; --=HYPERLINK(\"x\")"
            let encoded = nasty.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            #expect(try await client.form("/v1/receipts", "push_id=\(encoded)&device_id=\(encoded)").status == .noContent)
            #expect(try await fixture.store.pushFigures().map(\.pushID) == [nasty])
        }
    }

    /// Admission runs in one order on both paths: the body limit, then the rate limit, then the ingest key.
    @Test(arguments: IngestPath.allCases) func admissionStepsRunInOneOrder(_ path: IngestPath) async throws {
        var configuration = ServerConfiguration(port: 0, requireIngestKey: true, maxBodyBytes: 1024)
        configuration.ingestRateLimit = RateLimiter.Limit(ratePerSecond: 0.001, burst: 2)
        try await withApp(path.setup, configuration: configuration) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            // Too large is refused before the key is asked for, and takes no token from the client's bucket.
            let big = try await client.form("/v1/receipts", "push_id=1&pad=" + String(repeating: "x", count: 2048))
            #expect(big.status == .contentTooLarge)
            // Without a key: the rate limit's token is taken first, then the key is missing.
            #expect(try await client.form("/v1/receipts", "push_id=1").status == .unauthorized)
            #expect(try await client.form("/v1/receipts", "push_id=1", headers: fixture.bearer(.ingest)).status == .noContent)
            let limited = try await client.form("/v1/receipts", "push_id=1")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] != nil)
        }
    }
}
