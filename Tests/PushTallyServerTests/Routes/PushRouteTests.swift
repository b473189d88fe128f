import Foundation
import PushTallyTestSupport
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import Testing

@testable import PushTallyServer

@Suite struct PushRouteTests {
    let record = #"{"campaign":"新文章推荐","title":"立即查看","sent_at":"2026-11-20T08:00:00Z","targeted":100,"sent":90,"failed":{"Unregistered":7,"BadDeviceToken":3}}"#

    @Test(arguments: StoreKind.allCases) func registrationIsIdempotent(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let first = try await client.json(.put, "/v1/pushes/2018001", record, headers: fixture.bearer(.backend))
            #expect(first.status == .created)
            #expect(first.object["status"] as? String == "created")
            let second = try await client.json(.put, "/v1/pushes/2018001", record, headers: fixture.bearer(.backend))
            #expect(second.status == .ok)
            let pushes = try await fixture.store.pushFigures()
            #expect(pushes.count == 1)
            #expect(pushes[0].funnel.sent == 90)
            #expect(pushes[0].funnel.failed == 10)
            #expect(pushes[0].campaign == "新文章推荐")
        }
    }

    @Test(arguments: StoreKind.allCases) func aLaterPutReplacesTotalsButSentAtCannotMove(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await client.json(.put, "/v1/pushes/p1", record, headers: fixture.bearer(.backend))
            let replaced = try await client.json(
                .put, "/v1/pushes/p1", #"{"campaign":"新文章推荐","sent":95,"sent_at":"2026-11-20T08:00:00Z"}"#, headers: fixture.bearer(.backend))
            #expect(replaced.status == .ok)
            #expect(try await fixture.store.pushFigures().first?.funnel.sent == 95)
            #expect(try await fixture.store.pushFigures().first?.funnel.failed == 0)
            let moved = try await client.json(
                .put, "/v1/pushes/p1", #"{"campaign":"x","sent_at":"2026-11-21T08:00:00Z"}"#, headers: fixture.bearer(.backend))
            #expect(moved.status == .conflict)
            #expect(moved.errorCode == "sent_at_immutable")
            #expect(moved.errorField == "sent_at")
        }
    }

    @Test(arguments: StoreKind.allCases) func percentEncodedPushIDsInThePath(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let response = try await client.json(.put, "/v1/pushes/a%20b%2F%E6%96%B0", #"{"campaign":"c"}"#, headers: fixture.bearer(.backend))
            #expect(response.status == .created)
            #expect(try await fixture.store.pushFigures().map(\.pushID) == ["a b/新"])
        }
    }

    @Test(arguments: StoreKind.allCases) func badRecordsNameTheirField(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let missing = try await client.json(.put, "/v1/pushes/p1", #"{"sent": 3}"#, headers: fixture.bearer(.backend))
            #expect(missing.status == .badRequest)
            #expect(missing.errorField == "campaign")
            let negative = try await client.json(.put, "/v1/pushes/p1", #"{"campaign":"c","sent":-3}"#, headers: fixture.bearer(.backend))
            #expect(negative.errorField == "sent")
            let broken = try await client.json(.put, "/v1/pushes/p1", #"{"campaign":"#, headers: fixture.bearer(.backend))
            #expect(broken.errorCode == "malformed_json")
            let tooLong = try await client.json(
                .put, "/v1/pushes/" + String(repeating: "x", count: 129), #"{"campaign":"c"}"#, headers: fixture.bearer(.backend))
            #expect(tooLong.status == .badRequest)
            #expect(tooLong.errorField == "push_id")
            let form = try await client.form("/v1/pushes/p1", "campaign=c", headers: fixture.bearer(.backend))
            #expect(form.status == .methodNotAllowed)
            let formPut = try await client.send(
                .put, "/v1/pushes/p1", headers: fixture.bearer(.backend).merging([.contentType: "text/plain"]), body: "c")
            #expect(formPut.status == .unsupportedMediaType)
            #expect(try await fixture.store.pushFigures().isEmpty)
        }
    }

    /// JSON between systems is UTF-8 (RFC 8259 §8.1), on every route alike: a registration in UTF-16 is refused as
    /// a receipt in UTF-16 is, not read by the decoder's guess.
    @Test func jsonInUTF16IsRefusedOnEveryRoute() async throws {
        try await withApp { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            var headers = fixture.bearer(.backend)
            headers[.contentType] = "application/json"
            let wide = Array(#"{"campaign":"wide","push_id":"w1"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            for (method, path) in [(HTTPRequest.Method.put, "/v1/pushes/w1"), (.post, "/v1/receipts"), (.post, "/v1/delivery/fcm")] {
                let response = try await client.execute(uri: path, method: method, headers: headers, body: ByteBuffer(bytes: [0xFF, 0xFE] + wide))
                #expect(response.status == .badRequest, "\(path): \(response.text)")
                #expect(response.errorCode == "invalid_utf8", "\(path): \(response.text)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func batchRegistrationFromJSONAndNDJSON(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let array = try await client.json(
                .post, "/v1/pushes",
                #"[{"push_id":"a","campaign":"c","sent":10},{"push_id":"b","campaign":"c","sent":5},{"campaign":"c"}]"#,
                headers: fixture.bearer(.backend))
            #expect(array.status == .ok)
            #expect(array.object["accepted"] as? Int == 2)
            #expect(array.object["created"] as? Int == 2)
            #expect((array.object["rejected"] as? [[String: Any]])?.first?["field"] as? String == "push_id")
            let ndjson = try await client.send(
                .post, "/v1/pushes", headers: fixture.bearer(.backend).merging([.contentType: "application/x-ndjson"]),
                body: "{\"push_id\":\"a\",\"campaign\":\"c\",\"sent\":12}\n\n{\"push_id\":\"c\",\"campaign\":\"d\"}\n")
            #expect(ndjson.object["updated"] as? Int == 1)
            #expect(ndjson.object["created"] as? Int == 1)
            #expect(try await fixture.store.pushFigures().map(\.funnel.sent) == [12, 5, 0])
        }
    }

    @Test(arguments: StoreKind.allCases) func parallelSendersAddCountsIdempotentlyByBatchID(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await client.json(.put, "/v1/pushes/p1", #"{"campaign":"c"}"#, headers: fixture.bearer(.backend))
            for (batch, sent) in [("w1", 40), ("w2", 50), ("w1", 40)] {
                let response = try await client.json(
                    .post, "/v1/pushes/p1/sends", #"{"batch_id":"\#(batch)","sent":\#(sent),"failed":{"Unregistered":1}}"#,
                    headers: fixture.bearer(.backend))
                #expect(response.status == .ok)
            }
            let funnel = try #require(try await fixture.store.pushFigures().first).funnel
            #expect(funnel.sent == 90)
            #expect(funnel.failed == 2)
            let unknown = try await client.json(.post, "/v1/pushes/zz/sends", #"{"batch_id":"w1","sent":1}"#, headers: fixture.bearer(.backend))
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "push_not_registered")
        }
    }
}

extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var copy = self
        for field in other { copy[field.name] = field.value }
        return copy
    }
}
