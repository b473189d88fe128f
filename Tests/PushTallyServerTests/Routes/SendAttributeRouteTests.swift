import Foundation
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// APNs send attributes over HTTP on each store: each accepted at its limit and refused one past it with a
/// 400 naming the field; superseded pushes and `by=` on the reports.
@Suite struct SendAttributeRouteTests {
    /// `n` bytes of UTF-8 ending in a three-byte character, so a limit counted in characters would differ.
    static func bytes(_ n: Int) -> String {
        String(repeating: "a", count: n - 3) + "新"
    }

    /// PUTs `field` (a JSON value) on a fresh push and answers the response.
    static func put(
        _ client: any TestClientProtocol, _ fixture: TestFixture, _ id: String, _ field: String, _ json: String
    ) async throws -> TestResponse {
        try await client.json(.put, "/v1/pushes/\(id)", #"{"campaign":"c","\#(field)":\#(json)}"#, headers: fixture.bearer(.backend))
    }

    static func pushRow(_ client: any TestClientProtocol, _ fixture: TestFixture, _ id: String) async throws -> [String: Any] {
        let response = try await client.send(.get, "/v1/reports/pushes/\(id)", headers: fixture.bearer(.read))
        return (response.object["pushes"] as? [[String: Any]])?.first ?? [:]
    }

    @Test(arguments: StoreKind.allCases) func eachAttributeIsAcceptedAtItsLimit(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let longest = Self.bytes(64)
            let accepted: [(field: String, json: String, shown: String)] = [
                ("collapse_id", "\"\(longest)\"", longest), ("variant", "\"\(longest)\"", longest),
                ("priority", "5", "5"), ("priority", "10", "10"),
                ("expiration", "0", "0"), ("expiration", "\"2026-11-20T08:00:00Z\"", "2026-11-20T08:00:00Z"),
            ] + SendAttributes.pushTypes.map { ("push_type", "\"\($0)\"", $0) }
            for (index, item) in accepted.enumerated() {
                let response = try await Self.put(client, fixture, "p\(index)", item.field, item.json)
                #expect(response.status == .created, "\(item.field) \(item.json): \(response.text)")
                let shown = try await Self.pushRow(client, fixture, "p\(index)")[item.field]
                #expect(shown.map { "\($0)" } == item.shown, "\(item.field)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func eachAttributePastItsLimitIsRefusedNamingIt(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let refused: [(field: String, json: String)] = [
                ("collapse_id", "\"\(Self.bytes(65))\""), ("variant", "\"\(Self.bytes(65))\""),
                ("priority", "1"), ("priority", "7"), ("push_type", "\"banner\""), ("push_type", "\"Alert\""),
                ("expiration", "\"soon\""), ("expiration", "\"2026-13-45\""),
            ]
            for item in refused {
                let response = try await Self.put(client, fixture, "p1", item.field, item.json)
                #expect(response.status == .badRequest, "\(item.field) \(item.json)")
                #expect(response.errorField == item.field, "\(item.field) \(item.json): \(response.text)")
            }
            // In a batch the refused record is listed by index with its field; the others are kept.
            let batch = try await client.json(
                .post, "/v1/pushes",
                #"[{"push_id":"a","campaign":"c","priority":10},{"push_id":"b","campaign":"c","push_type":"banner"}]"#,
                headers: fixture.bearer(.backend))
            #expect(batch.object["accepted"] as? Int == 1)
            let rejected = (batch.object["rejected"] as? [[String: Any]])?.first
            #expect(rejected?["index"] as? Int == 1 && rejected?["field"] as? String == "push_type", "\(batch.text)")
            #expect(try await fixture.store.pushFigures().map(\.pushID) == ["a"])
        }
    }

    @Test(arguments: StoreKind.allCases) func supersededPushesOverHTTP(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let records = [
                ("p1", #"{"campaign":"a","app":"com.example","collapse_id":"news","sent_at":"2026-11-20T08:00:00Z","sent":5}"#),
                ("p2", #"{"campaign":"b","app":"com.example","collapse_id":"news","sent_at":"2026-11-20T08:01:30Z","sent":5}"#),
            ]
            for (id, body) in records {
                #expect(try await client.json(.put, "/v1/pushes/\(id)", body, headers: fixture.bearer(.backend)).status == .created)
            }
            let first = try await Self.pushRow(client, fixture, "p1")
            #expect(first["superseded_by"] as? String == "p2")
            #expect(first["superseded_after_s"] as? Int == 90)
            #expect(first["superseded_loss"] as? Int == 5)
            #expect(first["unexplained_loss"] as? Int == 0)
            let second = try await Self.pushRow(client, fixture, "p2")
            #expect(second["superseded_by"] is NSNull && second["superseded_after_s"] is NSNull)
            let rows = try await campaignRows(client, fixture)
            #expect(rows["a"]?["superseded_pushes"] as? Int == 1 && rows["b"]?["superseded_pushes"] as? Int == 0)
            let csv = try await client.send(.get, "/v1/reports/pushes?format=csv", headers: fixture.bearer(.read)).text
            let lines = csv.components(separatedBy: "\r\n")
            #expect(lines[0].contains(",conversions_influenced,superseded_by,superseded_after_s,superseded_loss,variant,"), "\(lines[0])")
            #expect(lines[1].contains(",0,p2,90,5,"), "\(lines[1])")
        }
    }

    @Test(arguments: StoreKind.allCases) func campaignsByPriorityOrPushTypeAndAStrictBy(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let body = #"""
                [{"push_id":"1","campaign":"c","priority":10,"push_type":"alert","sent":1},
                 {"push_id":"2","campaign":"c","priority":5,"push_type":"background","sent":2},
                 {"push_id":"3","campaign":"c","priority":10,"sent":4},{"push_id":"4","campaign":"c","sent":8}]
                """#
            #expect(try await client.json(.post, "/v1/pushes", body, headers: fixture.bearer(.backend)).object["accepted"] as? Int == 4)
            let byPriority = try await client.send(.get, "/v1/reports/campaigns?by=priority", headers: fixture.bearer(.read))
            let rows = byPriority.object["campaigns"] as? [[String: Any]] ?? []
            #expect(rows.map { $0["priority"] as? Int } == [5, 10, nil])
            #expect(rows.map { $0["sent"] as? Int } == [2, 5, 8])
            #expect(rows.allSatisfy { $0["campaign"] as? String == "c" && $0.keys.contains("priority") })
            let byType = try await client.send(.get, "/v1/reports/campaigns?by=push_type&format=csv", headers: fixture.bearer(.read))
            let lines = byType.text.components(separatedBy: "\r\n")
            #expect(lines[0].hasPrefix("campaign,push_type,pushes,sent,"), "\(lines[0])")
            #expect(lines[1...3].map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(4).joined(separator: ",") }
                == ["c,alert,1,1", "c,background,1,2", "c,,2,12"])
            // Without by, one row per campaign and no attribute column.
            let plain = try await campaignRows(client, fixture)
            #expect(plain["c"]?["sent"] as? Int == 15 && plain["c"]?["priority"] == nil)
            for (query, code) in [("by=banner", "bad_value"), ("by=variant", "bad_value"), ("by=priority&by=push_type", "repeated_parameter")] {
                let refused = try await client.send(.get, "/v1/reports/campaigns?\(query)", headers: fixture.bearer(.read))
                #expect(refused.status == .badRequest, "\(query)")
                #expect(refused.errorField == "by" && refused.errorCode == code, "\(query): \(refused.text)")
            }
            let pushes = try await client.send(.get, "/v1/reports/pushes?by=priority", headers: fixture.bearer(.read))
            #expect(pushes.status == .badRequest && pushes.errorField == "by")
        }
    }
}
