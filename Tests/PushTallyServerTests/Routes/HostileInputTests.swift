import Foundation
import PushTallyTestSupport
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import Testing

@testable import PushTallyServer

/// What attackers and broken clients send: each answered 4xx with a JSON error, never a 5xx or a crash.
@Suite struct HostileInputTests {
    @Test(arguments: IngestTarget.all) func deeplyNestedJSONIsRefused(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            for (method, path, body) in [
                (HTTPRequest.Method.post, "/v1/receipts", deep),
                (.post, "/v1/receipts", #"{"push_id": "p", "device_id": \#(deep)}"#),
                (.put, "/v1/pushes/p", #"{"campaign": \#(deep)}"#),
                (.post, "/v1/pushes", deep),
            ] {
                let response = try await client.json(method, path, body, headers: fixture.bearer(.admin))
                #expect((400..<500).contains(Int(response.status.code)), "\(path): \(response.status)")
                #expect(response.errorCode != nil)
            }
        }
    }

    @Test(arguments: IngestTarget.all) func invalidUTF8AndNULInJSON(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            var bytes = ByteBuffer(string: #"{"push_id": "a"#)
            bytes.writeBytes([0xFF, 0xFE])
            bytes.writeString(#""}"#)
            let invalid = try await client.execute(uri: "/v1/receipts", method: .post, headers: [.contentType: "application/json"], body: bytes)
            #expect(invalid.status == .badRequest)
            let nul = try await client.json(.post, "/v1/receipts", #"{"push_id": "a\u0000b"}"#)
            #expect(nul.status == .badRequest)
            #expect(nul.errorCode == "invalid_characters")
            #expect(try await fixture.store.pushFigures().isEmpty)
        }
    }

    /// An integer id past 2^53 arrives as another integer (9007199254740993 reads as ...992): every route taking
    /// push ids as JSON numbers refuses it, saying so and to send the id as a string, and one with a fraction is no id.
    @Test(arguments: IngestTarget.all) func integerIDsPastTwoToTheFiftyThird(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let huge = "9007199254740993"
            for (method, path, body) in [
                (HTTPRequest.Method.post, "/v1/receipts", #"{"push_id": \#(huge)}"#),
                (.post, "/v1/receipts", #"[{"push_id": \#(huge)}]"#),
                (.post, "/v1/actions", #"{"push_id": \#(huge), "action": "open"}"#),
                (.post, "/v1/pushes", #"[{"push_id": \#(huge), "campaign": "c"}]"#),
                (.put, "/v1/pushes/p", #"{"push_id": \#(huge), "campaign": "c"}"#),
                (.post, "/v1/pushes/p/sends", #"{"push_id": \#(huge), "batch_id": "b"}"#),
            ] {
                let response = try await client.json(method, path, body, headers: fixture.bearer(.admin))
                #expect(response.status == .badRequest || response.status == .ok, "\(path) \(body)")
                #expect(
                    response.text.contains("push_id is a number past 2^53 (9007199254740992), which JSON numbers do not carry exactly; send it as a string"),
                    "\(path) \(body): \(response.text)")
            }
            let fraction = try await client.json(.post, "/v1/receipts", #"{"push_id": 1.5}"#)
            #expect(fraction.status == .badRequest && fraction.errorField == "push_id")
            #expect(fraction.text.contains("push_id must be a string or an integer, not a number with a fraction"), "\(fraction.text)")
            // The largest integer a JSON number carries exactly is still an id.
            #expect(try await client.json(.post, "/v1/receipts", #"{"push_id": 9007199254740991}"#).status == .noContent)
            #expect(try await fixture.store.pushFigures().map(\.pushID) == ["9007199254740991"])
        }
    }

    @Test(arguments: IngestTarget.all) func numbersOutOfRange(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let cases: [(HTTPRequest.Method, String, String, String)] = [
                (.post, "/v1/receipts", #"{"push_id": 1e300}"#, "push_id"),
                (.post, "/v1/receipts", #"{"push_id": "p", "ts": 1e308}"#, "ts"),
                (.post, "/v1/receipts", #"{"push_id": "p", "ts": -1e20}"#, "ts"),
                (.put, "/v1/pushes/p", #"{"campaign": "c", "sent": 1e300}"#, "sent"),
                (.put, "/v1/pushes/p", #"{"campaign": "c", "targeted": -1}"#, "targeted"),
                (.put, "/v1/pushes/p", #"{"campaign": "c", "sent_at": 99999999999999}"#, "sent_at"),
            ]
            for (method, path, body, field) in cases {
                let response = try await client.json(method, path, body, headers: fixture.bearer(.admin))
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorField == field, "\(body)")
            }
            // A device clock merely wrong (far past or future, but a real time) is clamped, not refused.
            #expect(try await client.json(.post, "/v1/receipts", #"{"push_id": "p", "ts": 0}"#).status == .noContent)
            #expect(try await client.json(.post, "/v1/receipts", #"{"push_id": "p", "ts": "2099-01-01T00:00:00Z"}"#).status == .noContent)
        }
    }

    @Test(arguments: IngestTarget.all) func metacharactersInEveryTextFieldAreStoredLiterallyAndRenderedSafely(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let nasty = #"=cmd|' /C calc'!A0"; DROP TABLE pushes;--"#
            let json = try JSONSerialization.data(withJSONObject: [
                "campaign": nasty, "title": nasty, "app": nasty, "failed": [nasty: 1],
            ])
            let encodedID = nasty.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let put = try await client.json(.put, "/v1/pushes/\(encodedID)", String(decoding: json, as: UTF8.self), headers: fixture.bearer(.backend))
            #expect(put.status == .created)
            let event = try JSONSerialization.data(withJSONObject: [
                "push_id": nasty, "action": nasty, "device_id": nasty, "receipt_id": nasty, "platform": "+x",
                "app_version": "@y", "os_version": "-z",
            ])
            #expect(try await client.json(.post, "/v1/actions", String(decoding: event, as: UTF8.self)).status == .noContent)
            let push = try #require(try await fixture.store.pushFigures().first)
            #expect(push.pushID == nasty)
            #expect(push.campaign == nasty)
            #expect(push.funnel.customActions == [nasty: 1])
            let csv = try await client.send(.get, "/v1/reports/pushes?format=csv", headers: fixture.bearer(.read))
            let records = CSVParser.parse(csv.text)
            for (name, cell) in zip(records[0], records[1]) where cell.contains("cmd") {
                #expect(cell.hasPrefix("'="), "\(name) is not neutralised")
            }
            #expect(records[0].contains("action:\(nasty)") || records[0].contains { $0.hasPrefix("action:") })
        }
    }

    /// Past the writer's high-water mark, ingest answers 503 with Retry-After instead of queueing without bound.
    @Test(arguments: IngestTarget.all) func overloadedWriterAnswers503(_ target: IngestTarget) async throws {
        try await withApp(target, store: StoreConfiguration(writerHighWaterMark: 20)) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let batch = "[" + (0..<15).map { #"{"push_id":"load","receipt_id":"r\#($0)"}"# }.joined(separator: ",") + "]"
            let statuses = try await withThrowingTaskGroup(of: (Int, String?, String?).self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        let response = try await client.json(.post, "/v1/receipts", batch)
                        return (Int(response.status.code), response.headers[.retryAfter], response.errorCode)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let refused = statuses.filter { $0.0 == 503 }
            #expect(statuses.allSatisfy { $0.0 == 200 || $0.0 == 503 })
            #expect(statuses.contains { $0.0 == 200 })
            #expect(!refused.isEmpty)
            #expect(refused.allSatisfy { $0.1 != nil && $0.2 == "unavailable" })
            print("overload: \(statuses.count - refused.count) batches accepted, \(refused.count) refused with 503")
        }
    }
}
