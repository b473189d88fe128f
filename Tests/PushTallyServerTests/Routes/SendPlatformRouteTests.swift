import Foundation
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// Send records naming their platform over HTTP on each store (`PUT`, `POST /v1/pushes`, `.../sends`): the
/// field's rules as the events' own, and each platform's row of `campaigns?by=platform` with its sends.
@Suite struct SendPlatformRouteTests {
    static func rows(_ client: any TestClientProtocol, _ fixture: TestFixture, _ query: String) async throws -> [[String: Any]] {
        let response = try await client.send(.get, "/v1/reports/campaigns\(query)", headers: fixture.bearer(.read))
        #expect(response.status == .ok, "\(response.text)")
        return response.object["campaigns"] as? [[String: Any]] ?? []
    }

    @Test(arguments: StoreKind.allCases) func eachRecordsPlatformHasItsOwnRow(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let backend = fixture.bearer(.backend)
            #expect(try await client.json(.put, "/v1/pushes/a", #"{"campaign":"c","sent":10,"platform":"iOS"}"#, headers: backend).status == .created)
            let batch = try await client.json(
                .post, "/v1/pushes", #"[{"push_id":"b","campaign":"c","sent":8,"failed":{"UNREGISTERED":2},"platform":"ANDROID"}]"#,
                headers: backend)
            #expect(batch.status == .ok && batch.object["created"] as? Int == 1, "\(batch.text)")
            let sends = try await client.json(.post, "/v1/pushes/a/sends", #"{"batch_id":"w","sent":4,"platform":"web"}"#, headers: backend)
            #expect(sends.status == .ok, "\(sends.text)")
            // The platform is NFC like every name, and folded to ASCII lower case: one platform, one spelling.
            #expect(try await client.json(.put, "/v1/pushes/d", "{\"campaign\":\"c\",\"sent\":1,\"platform\":\"Cafe\u{301}\"}", headers: backend).status == .created)
            #expect(try await client.json(.put, "/v1/pushes/e", "{\"campaign\":\"c\",\"sent\":1,\"platform\":\"Caf\u{E9}\"}", headers: backend).status == .created)
            let receipts = #"[{"push_id":"a","receipt_id":"1","platform":"IOS"},{"push_id":"b","receipt_id":"2","platform":"Android"},{"push_id":"b","receipt_id":"3","platform":"android"}]"#
            #expect(try await client.json(.post, "/v1/receipts", receipts).status == .ok)

            let rows = try await Self.rows(client, fixture, "?by=platform")
            let sent = Dictionary(uniqueKeysWithValues: rows.map { ($0["platform"] as? String ?? "", $0["sent"] as? Int ?? -1) })
            #expect(sent == ["ios": 10, "android": 8, "web": 4, "caf\u{E9}": 2, "unknown": 0], "\(rows)")
            let android = try #require(rows.first { $0["platform"] as? String == "android" })
            #expect(android["display_rate"] as? Double == 2.0 / 8 && android["failed"] as? Int == 2, "\(android)")
            #expect((android["failed_reasons"] as? [String: Int]) == ["UNREGISTERED": 2])
            let whole = try await Self.rows(client, fixture, "")
            #expect(whole.first?["sent"] as? Int == 24)
            let ios = try await Self.rows(client, fixture, "?platform=ios")
            #expect(ios.first?["display_rate"] as? Double == 0.1, "\(ios)")
            #expect(try await Self.rows(client, fixture, "?platform=iOS").first?["display_rate"] as? Double == 0.1, "a filter folds alike")
        }
    }

    @Test(arguments: StoreKind.allCases) func aPlatformOutsideTheRulesIsRefusedNamingIt(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let backend = fixture.bearer(.backend)
            for json in ["\"\(String(repeating: "x", count: 33))\"", "\"a\\u0001b\"", "[\"ios\"]", "true"] {
                let put = try await client.json(.put, "/v1/pushes/a", #"{"campaign":"c","platform":\#(json)}"#, headers: backend)
                #expect(put.status == .badRequest && put.errorField == "platform", "\(json): \(put.text)")
                let sends = try await client.json(.post, "/v1/pushes/a/sends", #"{"batch_id":"b","campaign":"c","platform":\#(json)}"#, headers: backend)
                #expect(sends.status == .badRequest && sends.errorField == "platform", "\(json): \(sends.text)")
            }
            // Nothing was stored by the refused records.
            #expect(try await Self.rows(client, fixture, "").isEmpty)
        }
    }
}
