import Foundation
import PushTallyTestSupport
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import Testing

@testable import PushTallyServer

@Suite struct AuthTests {
    /// Each protected route with the role it needs and a request body that would otherwise succeed.
    static let routes: [(HTTPRequest.Method, String, String?, Role)] = [
        (.put, "/v1/pushes/p1", #"{"campaign":"c"}"#, .backend),
        (.post, "/v1/pushes", #"[{"push_id":"p2","campaign":"c"}]"#, .backend),
        (.post, "/v1/pushes/p1/sends", #"{"batch_id":"b","campaign":"c"}"#, .backend),
        (.post, "/v1/delivery/fcm", #"{"message_id":"m","event":"MESSAGE_ACCEPTED"}"#, .backend),
        (.post, "/v1/pushes/p1/deliveries", #"[{"device_id":"d","platform":"ios","outcome":"accepted"}]"#, .backend),
        (.post, "/v1/devices/states", #"["d"]"#, .backend),
        (.get, "/v1/reports/campaigns", nil, .read),
        (.get, "/v1/reports/pushes", nil, .read),
        (.get, "/v1/reports/pushes/p1", nil, .read),
        (.get, "/v1/reports/campaigns/c", nil, .read),
        (.get, "/v1/reports/timeseries", nil, .read),
        (.get, "/v1/reports/versions", nil, .read),
        (.get, "/v1/reports/attribution", nil, .read),
        (.get, "/v1/reports/audience", nil, .read),
        (.get, "/v1/reports/devices", nil, .read),
        (.get, "/v1/reports/campaigns/c/variants", nil, .read),
        (.get, "/v1/reports/variants?campaign=c", nil, .read),
        // A public address literal: no DNS, and allowed without --allow-private-webhooks.
        (.post, "/v1/webhooks", #"{"url":"http://93.184.216.34/hook","events":["push.registered"]}"#, .admin),
        (.get, "/v1/webhooks", nil, .admin),
        (.get, "/v1/webhooks/wh_auth/deliveries", nil, .admin),
        (.post, "/v1/webhooks/wh_auth/replay", #"{"since":0}"#, .admin),
        (.delete, "/v1/webhooks/wh_auth", nil, .admin),
        (.post, "/v1/alerts", #"{"name":"auth","kind":"receipts_stopped","window":"1h","threshold":0.2,"min_sent":1}"#, .admin),
        (.get, "/v1/alerts", nil, .read),
        (.get, "/v1/alerts/al_auth/history", nil, .read),
        (.delete, "/v1/alerts/al_auth", nil, .admin),
        (.get, "/v1/devices/dev_auth/timeline", nil, .admin),
        (.get, "/v1/events", nil, .export),
    ]

    /// A route's pattern from its test path (`/v1/pushes/p1` -> `/v1/pushes/{push_id}`).
    static func pattern(_ method: HTTPRequest.Method, _ path: String) -> String {
        let pattern = path.prefix { $0 != "?" }.replacingOccurrences(of: "/p1", with: "/{push_id}")
            .replacingOccurrences(of: "/campaigns/c", with: "/campaigns/{campaign}")
            .replacingOccurrences(of: "/wh_auth", with: "/{id}").replacingOccurrences(of: "/al_auth", with: "/{id}")
            .replacingOccurrences(of: "/dev_auth", with: "/{device_id}")
        return "\(method.rawValue) \(pattern)"
    }

    /// Routes anyone may call: extensions cannot keep a secret, probes and scrapers carry none, and the
    /// dashboard's files hold no data (its data comes from the report routes, with the user's token).
    static let publicRoutes: Set<String> = [
        "POST /v1/receipts", "POST /v1/actions", "POST /v1/sessions", "POST /v1/conversions", "GET /healthz", "GET /metrics",
        "GET /dashboard", "GET /dashboard/{file}",
    ]

    /// A route added later is either in `routes` (and so checked below) or public on purpose.
    @Test func everyRouteIsCheckedOrPublicOnPurpose() async throws {
        let fixture = try await TestFixture.make()
        defer { fixture.tearDown() }
        let registered = Set(buildRouter(configuration: ServerConfiguration(), store: fixture.store).routes.map(\.description))
        let protected = Set(Self.routes.map { method, path, _, _ in Self.pattern(method, path) })
        #expect(registered == protected.union(Self.publicRoutes))
    }

    @Test func everyProtectedRouteChecksItsRole() async throws {
        try await withApp { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await client.json(.put, "/v1/pushes/p1", #"{"campaign":"c"}"#, headers: fixture.bearer(.admin))
            // What the routes on one webhook or alert act on; deleted last, by their own routes.
            try await fixture.store.createWebhook(
                WebhookEndpoint(
                    id: "wh_auth", url: "http://93.184.216.34/hook", events: [.pushRegistered], description: nil,
                    createdAtMillis: 0, status: .active),
                secret: WebhookSecret.generate())
            try await fixture.store.createAlert(
                Alert.new(AlertRule(name: "auth-fixture", kind: .receiptsStopped, windowMillis: 3_600_000, threshold: 0.2, minSent: 1), at: 0)
                    .withID("al_auth"))
            for (method, path, body, role) in Self.routes {
                let headers: HTTPFields = body == nil ? [:] : [.contentType: "application/json"]
                let missing = try await client.send(method, path, headers: headers, body: body)
                #expect(missing.status == .unauthorized, "\(path) without a token")
                #expect(missing.headers[.wwwAuthenticate] == "Bearer")
                #expect(missing.errorCode == "unauthorized")
                let unknown = try await client.send(
                    method, path, headers: headers.merging([.authorization: "Bearer pt_000000000000_" + String(repeating: "0", count: 64)]),
                    body: body)
                #expect(unknown.status == .unauthorized, "\(path) with an unknown token")
                for other in Role.allCases where !other.grants(role) {
                    let wrong = try await client.send(method, path, headers: headers.merging(fixture.bearer(other)), body: body)
                    #expect(wrong.status == .forbidden, "\(path) with a \(other) token")
                    #expect(wrong.errorCode == "forbidden")
                }
                // Admin-only routes once: a second create or delete would conflict with the first.
                for good in role == .admin ? [.admin] : [role, .admin] {
                    let ok = try await client.send(method, path, headers: headers.merging(fixture.bearer(good)), body: body)
                    #expect(ok.status.code < 300, "\(path) with a \(good) token: \(ok.status) \(ok.text)")
                }
            }
        }
    }

    @Test func revokedTokensAre401() async throws {
        try await withApp { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let (token, info) = try await fixture.store.createToken(role: .read, label: nil)
            #expect(try await client.send(.get, "/v1/reports/campaigns", headers: [.authorization: "Bearer \(token)"]).status == .ok)
            #expect(try await fixture.store.revokeToken(info.id))
            #expect(try await client.send(.get, "/v1/reports/campaigns", headers: [.authorization: "Bearer \(token)"]).status == .unauthorized)
        }
    }

    @Test func ingestIsOpenByDefault() async throws {
        try await withApp { (client: any TestClientProtocol, _: TestFixture) async throws in
            #expect(try await client.form("/v1/receipts", "push_id=1").status == .noContent)
        }
    }

    @Test func requireIngestKeyAcceptsHeaderOrQueryKey() async throws {
        try await withApp(configuration: ServerConfiguration(port: 0, requireIngestKey: true)) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            #expect(try await client.form("/v1/receipts", "push_id=1").status == .unauthorized)
            #expect(try await client.form("/v1/actions", "push_id=1&action=open").status == .unauthorized)
            #expect(try await client.form("/v1/receipts", "push_id=1", headers: fixture.bearer(.read)).status == .forbidden)
            #expect(try await client.form("/v1/receipts", "push_id=1", headers: fixture.bearer(.ingest)).status == .noContent)
            let key = fixture.tokens[.ingest]!
            #expect(try await client.form("/v1/receipts?key=\(key)", "push_id=1").status == .noContent)
            #expect(try await client.form("/v1/receipts?key=nonsense", "push_id=1").status == .unauthorized)
            #expect(try await fixture.store.pushFigures().first?.funnel.displayed == 2)
        }
    }
}

extension Alert {
    /// The alert under a fixed id, for tests that address it by path.
    fileprivate func withID(_ id: String) -> Alert {
        var alert = self
        alert.id = id
        return alert
    }
}
