import CompressNIO
import Foundation
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// `POST /v1/delivery/fcm` on each store: the fixture's counts over HTTP and again after a re-import, each
/// equal to the recount; a broken file refused naming its line, with nothing stored; who may post.
@Suite struct FCMDeliveryRouteTests {
    static func post(_ client: any TestClientProtocol, _ body: String, headers: HTTPFields) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/x-ndjson"
        return try await client.send(.post, "/v1/delivery/fcm", headers: headers, body: body)
    }

    static func push(_ client: any TestClientProtocol, _ fixture: TestFixture, _ id: String) async throws -> [String: Any] {
        let response = try await client.send(.get, "/v1/reports/pushes/\(id)", headers: fixture.bearer(.read))
        return (response.object["pushes"] as? [[String: Any]])?.first ?? [:]
    }

    static func expectCounts(_ client: any TestClientProtocol, _ fixture: TestFixture, _ counts: FCMExportFixture.Counts) async throws {
        for label in ["fcm-1", "fcm-2", "fcm-ghost"] {
            let row = try await Self.push(client, fixture, label)
            #expect(row["device_delivered"] as? Int == Int(counts.count(label, "MESSAGE_DELIVERED")), "\(label): \(row)")
            #expect(row["fcm_accepted"] as? Int == Int(counts.count(label, "MESSAGE_ACCEPTED")), "\(label)")
            #expect(row["fcm_failed"] as? Int == Int(counts.errors(label).values.reduce(0, +)), "\(label)")
            #expect((row["fcm_failed_reasons"] as? [String: Int]) == counts.errors(label).mapValues(Int.init), "\(label)")
        }
        #expect(try await Self.push(client, fixture, "fcm-ghost")["orphan"] as? Bool == true)
    }

    @Test(arguments: StoreKind.allCases) func theFixturesCountsOverHTTPAndAfterAReimport(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            for push in FCMExportFixture.registered {
                let put = try await client.json(.put, "/v1/pushes/\(push)", #"{"campaign":"sale","sent":4,"platform":"android"}"#, headers: fixture.bearer(.backend))
                #expect(put.status == .created)
            }
            let counts = try FCMExportFixture.recount(FCMExportFixture.text)

            // A broken file: 400 naming the line, and nothing of it stored.
            let broken = try await Self.post(client, FCMExportFixture.broken, headers: fixture.bearer(.backend))
            #expect(broken.status == .badRequest && broken.object["line"] as? Int == FCMExportFixture.brokenLine, "\(broken.text)")
            #expect((broken.object["message"] as? String)?.hasPrefix("line \(FCMExportFixture.brokenLine): ") == true)
            #expect(try await Self.push(client, fixture, "fcm-1")["fcm_accepted"] as? Int == 0)

            let first = try await Self.post(client, FCMExportFixture.text, headers: fixture.bearer(.backend))
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.object["stored"] as? Int == counts.stored && first.object["duplicates"] as? Int == counts.duplicates)
            #expect(first.object["orphans"] as? Int == counts.orphans && first.object["unlabelled"] as? Int == counts.unlabelled)
            try await Self.expectCounts(client, fixture, counts)

            // Again, as an admin, gzip-encoded: every row a duplicate, the counts as they were.
            var headers = fixture.bearer(.admin)
            headers[.contentEncoding] = "gzip"
            headers[.contentType] = "application/x-ndjson"
            var plain = ByteBuffer(string: FCMExportFixture.text)
            let gzipped = try plain.compress(with: .gzip())
            let again = try await client.execute(uri: "/v1/delivery/fcm", method: .post, headers: headers, body: gzipped)
            #expect(again.status == .ok && again.object["duplicates"] as? Int == counts.rows && again.object["stored"] as? Int == 0, "\(again.text)")
            try await Self.expectCounts(client, fixture, counts)

            // CSV: one fcm_failed:<EVENT> column per error event.
            let csv = try await client.send(.get, "/v1/reports/pushes/fcm-1?format=csv", headers: fixture.bearer(.read)).text
            #expect(csv.contains("device_delivered,displayed_of_delivered,fcm_accepted,fcm_failed"), "\(csv)")
            #expect(csv.contains("fcm_failed:INVALID_REGISTRATION") && csv.contains("fcm_failed:QUOTA_EXCEEDED"), "\(csv)")
        }
    }

    @Test(arguments: StoreKind.allCases) func onlyBackendAndAdminTokensPostAndBadBodiesAreRefused(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            #expect(try await Self.post(client, FCMExportFixture.text, headers: [:]).status == .unauthorized)
            #expect(try await Self.post(client, FCMExportFixture.text, headers: fixture.bearer(.read)).status == .forbidden)
            #expect(try await Self.post(client, FCMExportFixture.text, headers: fixture.bearer(.ingest)).status == .forbidden)
            var xml = fixture.bearer(.backend)
            xml[.contentType] = "application/xml"
            #expect(try await client.send(.post, "/v1/delivery/fcm", headers: xml, body: "<a/>").status == .unsupportedMediaType)
            let bad = try await Self.post(client, #"{"message_id":"m","event":"MESSAGE_SENT"}"#, headers: fixture.bearer(.backend))
            #expect(bad.status == .badRequest && bad.errorField == "event" && bad.object["line"] as? Int == 1, "\(bad.text)")
            var gzip = fixture.bearer(.backend)
            gzip[.contentEncoding] = "gzip"
            #expect(try await client.send(.post, "/v1/delivery/fcm", headers: gzip, body: "not gzip").errorCode == "malformed_gzip")
            // A body inflating past the bound is refused, whatever its size on the wire.
            var zeros = ByteBuffer(repeating: UInt8(ascii: " "), count: FCMDeliveryController<PushTallyRequestContext>.maxBodyBytes + 1)
            let bomb = try zeros.compress(with: .gzip())
            let refused = try await client.execute(uri: "/v1/delivery/fcm", method: .post, headers: gzip, body: bomb)
            #expect(refused.status == .contentTooLarge && refused.errorCode == "body_too_large", "\(refused.text)")
        }
    }
}
