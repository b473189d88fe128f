import Foundation
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// Receipts' `media` and `extension_ms` and sessions' `notification_permission` on every ingest path and
/// store: values outside the contract are 400s naming the field (one element of a batch only); the
/// values taken are stored and shown in the device timeline.
@Suite struct MediaPermissionRouteTests {
    static var anHourAgo: Int { Int(Date().timeIntervalSince1970) - 3600 }

    @Test(arguments: IngestTarget.all) func valuesOutsideTheContractAre400sNamingTheField(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            for (body, field) in [
                ("push_id=p1&media=huge", "media"), ("push_id=p1&media=None", "media"), ("push_id=p1&media=timed-out", "media"),
                ("push_id=p1&extension_ms=-1", "extension_ms"), ("push_id=p1&extension_ms=60001", "extension_ms"),
                ("push_id=p1&extension_ms=1.5", "extension_ms"), ("push_id=p1&extension_ms=ten", "extension_ms"),
                ("push_id=p1&extension_ms=007", "extension_ms"), ("push_id=p1&extension_ms=%2B5", "extension_ms"),
            ] {
                let response = try await client.form("/v1/receipts", body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorField == field && response.errorCode == "bad_value", "\(body): \(response.text)")
            }
            for (body, field) in [
                (#"{"push_id":"p1","media":"image"}"#, "media"), (#"{"push_id":"p1","media":3}"#, "media"),
                (#"{"push_id":"p1","extension_ms":60000.5}"#, "extension_ms"), (#"{"push_id":"p1","extension_ms":true}"#, "extension_ms"),
                (#"{"push_id":"p1","extension_ms":-3}"#, "extension_ms"), (#"{"push_id":"p1","extension_ms":"9e3"}"#, "extension_ms"),
            ] {
                let response = try await client.json(.post, "/v1/receipts", body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorField == field, "\(body): \(response.text)")
            }
            let batch = try await client.json(
                .post, "/v1/receipts", #"[{"push_id":"p1","media":"attached"},{"push_id":"p1","extension_ms":70000},{"push_id":"p1","media":"none"}]"#)
            #expect(batch.status == .ok, "\(batch.text)")
            #expect(batch.object["accepted"] as? Int == 2)
            let rejected = try #require(batch.object["rejected"] as? [[String: Any]])
            #expect(rejected.count == 1 && rejected[0]["index"] as? Int == 1 && rejected[0]["field"] as? String == "extension_ms")

            let session = try await client.form("/v1/sessions", "device_id=d1&session_id=s1&notification_permission=allowed")
            #expect(session.status == .badRequest)
            #expect(session.errorField == "notification_permission" && session.errorCode == "bad_value", "\(session.text)")
            let json = try await client.json(.post, "/v1/sessions", #"{"device_id":"d1","session_id":"s1","notification_permission":"Denied"}"#)
            #expect(json.status == .badRequest)
            #expect(json.errorField == "notification_permission")

            // The contract's edges and the absent forms are taken.
            for body in ["push_id=p1&extension_ms=0", "push_id=p1&extension_ms=60000&media=timed_out", "push_id=p1&media=&extension_ms="] {
                #expect(try await client.form("/v1/receipts", body).status == .noContent, "\(body)")
            }
            for body in [#"{"push_id":"p1","media":null,"extension_ms":"250"}"#, #"{"push_id":"p1","extension_ms":1e3}"#] {
                #expect(try await client.json(.post, "/v1/receipts", body).status == .noContent, "\(body)")
            }
            for permission in NotificationPermission.allCases {
                let body = "device_id=d1&session_id=\(permission.rawValue)&notification_permission=\(permission.rawValue)"
                #expect(try await client.form("/v1/sessions", body).status == .noContent, "\(permission)")
            }
        }
    }

    @Test(arguments: IngestTarget.all) func takenValuesAreStoredAndShownInTheTimeline(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let base = Self.anHourAgo
            try await client.form("/v1/receipts", "push_id=p1&device_id=dev-a&ts=\(base)&media=timed_out&extension_ms=29800")
            try await client.json(.post, "/v1/receipts", #"{"push_id":"p2","device_id":"dev-a","ts":\#(base + 1),"media":"none","extension_ms":12}"#)
            try await client.json(.post, "/v1/receipts", #"[{"push_id":"p3","device_id":"dev-a","ts":\#(base + 2),"media":"attached"}]"#)
            try await client.form("/v1/receipts", "push_id=p4&device_id=dev-a&ts=\(base + 3)")
            try await client.form("/v1/sessions", "device_id=dev-a&session_id=s1&ts=\(base + 4)&notification_permission=not_determined")

            let response = try await client.send(.get, "/v1/devices/dev-a/timeline", headers: fixture.bearer(.admin))
            let events = try #require(response.object["events"] as? [[String: Any]])
            #expect(events.map { $0["media"] as? String } == ["timed_out", "none", "attached", nil, nil], "\(response.text)")
            #expect(events.map { $0["extension_ms"] as? Int } == [29800, 12, nil, nil, nil])
            #expect(events.map { $0["notification_permission"] as? String } == [nil, nil, nil, nil, "not_determined"])
            #expect(events[3].keys.contains("media") == false, "a receipt that did not say is unknown, not none")
        }
    }
}
