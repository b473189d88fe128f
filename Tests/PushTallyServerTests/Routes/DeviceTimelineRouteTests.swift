import Foundation
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// `GET /v1/devices/{device_id}/timeline` on each store: admins only, oldest first, paged, keyed lookup.
@Suite struct DeviceTimelineRouteTests {
    static var anHourAgo: Int { Int(Date().timeIntervalSince1970) - 3600 }

    static func timeline(_ path: String, _ client: any TestClientProtocol, _ fixture: TestFixture) async throws -> TestResponse {
        try await client.send(.get, path, headers: fixture.bearer(.admin))
    }

    @Test(arguments: StoreKind.allCases) func onlyAdminsReadIt(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await client.form("/v1/receipts", "push_id=p1&device_id=dev%2F1&ts=\(Self.anHourAgo)")
            let path = "/v1/devices/dev%2F1/timeline"
            let admin = try await client.send(.get, path, headers: fixture.bearer(.admin))
            #expect(admin.status == .ok)
            #expect(admin.headers[.contentType] == "application/json; charset=utf-8")
            #expect((admin.object["events"] as? [[String: Any]])?.count == 1, "\(admin.text)")
            for role in [Role.read, .ingest, .backend] {
                let refused = try await client.send(.get, path, headers: fixture.bearer(role))
                #expect(refused.status == .forbidden, "\(role)")
                #expect(refused.errorCode == "forbidden")
                #expect(!refused.text.contains("\"events\""))
            }
            let anonymous = try await client.send(.get, path)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.headers[.wwwAuthenticate] == "Bearer")
        }
    }

    @Test(arguments: StoreKind.allCases) func eventsPostedOutOfOrderComeBackByEventTimeInPages(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let base = Self.anHourAgo
            try await client.json(.put, "/v1/pushes/p1", #"{"campaign":"spring","sent_at":\#(base - 10),"app":"com.example"}"#, headers: fixture.bearer(.admin))
            // Newest first on the wire, each a separate request.
            try await client.form("/v1/conversions", "device_id=dev-a&event=purchase&value=2.50&currency=EUR&conversion_id=c1&ts=\(base + 40)")
            try await client.form("/v1/sessions", "device_id=dev-a&session_id=s1&ts=\(base + 30)")
            try await client.form("/v1/actions", "push_id=p1&action=open&device_id=dev-a&ts=\(base + 20)")
            try await client.form("/v1/receipts", "push_id=p1&device_id=dev-a&ts=\(base)&app_version=3.0")
            try await client.form("/v1/receipts", "push_id=p1&device_id=dev-b&ts=\(base + 5)")

            let whole = try await Self.timeline("/v1/devices/dev-a/timeline", client, fixture)
            #expect(whole.status == .ok)
            let events = try #require(whole.object["events"] as? [[String: Any]])
            #expect(events.map { $0["type"] as? String } == ["display", "action", "session", "conversion"], "\(whole.text)")
            #expect(whole.object["next"] == nil)
            #expect(events[0]["push_id"] as? String == "p1")
            #expect(events[0]["campaign"] as? String == "spring")
            #expect(events[0]["app_version"] as? String == "3.0")
            #expect(events[0]["time_to_display_s"] as? Double == 10)
            #expect(events[0]["ts"] as? String == Timestamp.iso8601(millis: Int64(base) * 1000))
            #expect(events[0]["received_at"] is String)
            #expect(events[0]["duplicate"] as? Bool == false)
            #expect(events[1]["action"] as? String == "open")
            #expect(events[2]["session_id"] as? String == "s1")
            #expect(events[2]["attribution"] as? String == "direct")
            #expect(events[2]["attributed_push"] as? String == "p1")
            #expect(events[3]["conversion_id"] as? String == "c1")
            #expect(events[3]["event"] as? String == "purchase")
            #expect(events[3]["value"] as? Double == 2.5)
            #expect(events[3]["currency"] as? String == "EUR")

            // Pages of two: next on the first, none on the last, together the whole timeline.
            let first = try await Self.timeline("/v1/devices/dev-a/timeline?limit=2", client, fixture)
            #expect((first.object["events"] as? [[String: Any]])?.count == 2)
            let next = try #require(first.object["next"] as? String)
            let last = try await Self.timeline("/v1/devices/dev-a/timeline?limit=2&after=\(next)", client, fixture)
            #expect(last.status == .ok)
            #expect((last.object["events"] as? [[String: Any]])?.map { $0["type"] as? String } == ["session", "conversion"])
            #expect(last.object["next"] == nil)

            // Keyed lookup: dev-b sees only its own display; a device never seen has none.
            let other = try await Self.timeline("/v1/devices/dev-b/timeline", client, fixture)
            #expect((other.object["events"] as? [[String: Any]])?.count == 1)
            #expect(try await Self.timeline("/v1/devices/dev-z/timeline", client, fixture).text == #"{"events":[]}"#)
        }
    }

    @Test(arguments: StoreKind.allCases) func badLimitsAndCursorsAre400NamingThem(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            for (query, field) in [
                ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=ten", "limit"), ("after=abc", "after"),
                ("after=t1.0000000000000000000000000000002A", "after"), ("after=", "after"), ("since=1", "since"),
                ("limit=1&limit=2", "limit"),
            ] {
                let response = try await Self.timeline("/v1/devices/dev-a/timeline?\(query)", client, fixture)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.errorField == field, "\(query): \(response.text)")
            }
            let most = try await Self.timeline("/v1/devices/dev-a/timeline?limit=1000", client, fixture)
            #expect(most.status == .ok)
        }
    }

    /// Ingest takes device ids of at most 128 bytes: a longer one is a 400 naming it, over loopback, never an empty 200.
    @Test func idsLongerThanIngestTakesAre400NamingThem() async throws {
        try await withApp(.live) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            for id in [String(repeating: "d", count: 50_000), String(repeating: "d", count: 129), String(repeating: "é", count: 65)] {
                let encoded = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
                let response = try await Self.timeline("/v1/devices/\(encoded)/timeline", client, fixture)
                #expect(response.status == .badRequest, "\(id.count)")
                #expect(response.errorCode == "too_long" && response.errorField == "device_id", "\(response.text)")
            }
            let control = try await Self.timeline("/v1/devices/a%0Ab/timeline", client, fixture)
            #expect(control.status == .badRequest && control.errorField == "device_id", "\(control.text)")
            let longest = try await Self.timeline("/v1/devices/\(String(repeating: "d", count: 128))/timeline", client, fixture)
            #expect(longest.status == .ok)
        }
    }

    @Test func logsNameTheTemplateNotTheDevice() {
        #expect(APIRoute.loggedPath(of: "/v1/devices/secret-device/timeline") == "/v1/devices/:device_id/timeline")
        #expect(APIRoute.loggedPath(of: "/v1/pushes/p1") == "/v1/pushes/p1")
        #expect(APIRoute.matching(path: "/v1/devices/d/timeline") == .deviceTimeline)
        #expect(APIRoute.deviceTimeline.queryParameters == ["limit", "after"])
    }
}
