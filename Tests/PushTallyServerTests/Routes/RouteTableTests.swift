import Foundation
import PushTallyTestSupport
import Hummingbird
import PushTallyCore
import Testing

@testable import PushTallyServer

/// ``APIRoute`` is the one list of routes: the router serves exactly it, and nothing else names a route.
@Suite struct RouteTableTests {
    static let root = PackageRoot.url

    @Test func theRouterServesExactlyTheTable() async throws {
        let fixture = try await TestFixture.make()
        defer { fixture.tearDown() }
        let (_, routes) = buildRouter(configuration: ServerConfiguration(), store: fixture.store)
        #expect(routes.count == APIRoute.allCases.count)
        #expect(Set(routes) == Set(APIRoute.allCases.map(\.routeDescription)))
    }

    /// The dashboard's scripts call report routes with the user's token; each must be a `GET` route of the
    /// table that a `read` token may call, so the page and the server cannot drift apart.
    @Test func everyAPIPathTheDashboardCallsIsAReadRouteOfTheTable() throws {
        let script = DashboardAssets.files.filter { $0.key.hasSuffix(".js") }.map(\.value.body).joined(separator: "\n")
        let paths = script.matches(of: /["'`](\/v1\/[^"'`?]*)["'`]/).map { String($0.1) }
        #expect(paths.count >= 4, "found \(paths)")
        for path in paths {
            // `"/v1/reports/campaigns/" + encodeURIComponent(...)`: a parameter follows.
            let concrete = path.hasSuffix("/") ? path + "x" : path
            let route = APIRoute.allCases.first { $0.method == .get && $0.matches(path: concrete[...]) }
            #expect(route != nil, "the dashboard calls \(path), which is no GET route of APIRoute")
            #expect(route?.role == .read, "the dashboard calls \(path) with a read token")
        }
    }

    /// Route paths are written in APIRoute.swift only (the generated dashboard assets aside).
    @Test func noOtherServerSourceSpellsARoutePath() throws {
        let sources = Self.root.appendingPathComponent("Sources/PushTallyServer")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var spelling: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            guard !["APIRoute.swift", "DashboardAssets.swift"].contains(file.lastPathComponent) else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            if APIRoute.allCases.contains(where: { text.contains("\"\($0.path)\"") }) { spelling.append(file.lastPathComponent) }
        }
        #expect(spelling.isEmpty, "route paths spelled outside APIRoute.swift: \(spelling)")
    }

    /// Every role the table declares is one ``AuthTests`` checks, and every route without one is public on purpose.
    @Test func theAuthTestsCoverEveryDeclaredRole() {
        var checked: [String: Role] = [:]
        for (method, path, _, role) in AuthTests.routes {
            checked[AuthTests.pattern(method, path)] = role
        }
        for route in APIRoute.allCases {
            let name = route.routeDescription.description
            switch route.role {
            case .ingest?, nil: #expect(AuthTests.publicRoutes.contains(name), "\(name) is neither checked nor public")
            case let role?: #expect(checked[name] == role, "\(name) needs \(role)")
            }
        }
    }

    @Test func pathsMatchTheirRoutesShape() {
        #expect(APIRoute.matching(path: "/v1/receipts") == .receipts)
        #expect(APIRoute.matching(path: "/v1/receipts/") == .receipts)
        #expect(APIRoute.matching(path: "/v1/pushes/p1") == .registerPush)
        #expect(APIRoute.matching(path: "/v1/pushes/p1/sends") == .recordSends)
        #expect(APIRoute.matching(path: "/v1/pushes") == .registerPushes)
        #expect(APIRoute.matching(path: "/v1/pushes//sends") == nil)
        #expect(APIRoute.matching(path: "/v1/receiptsx") == nil)
        #expect(APIRoute.matching(path: "/v1/reports/campaigns/spring") == .report(.campaign))
        #expect(APIRoute.matching(path: "/") == nil)
        // The fast path takes the ingest routes by exact method and path, the query aside.
        #expect(IngestPipeline.route(methodName: "POST", target: "/v1/actions?key=k")?.0 == .actions)
        #expect(IngestPipeline.route(methodName: "POST", target: "/v1/receipts")?.1 == .display)
        #expect(IngestPipeline.route(methodName: "GET", target: "/v1/receipts") == nil)
        #expect(IngestPipeline.route(methodName: "POST", target: "/v1/receipts/") == nil)
        #expect(IngestPipeline.route(methodName: "POST", target: "/v1/pushes") == nil)
    }

    /// Refusals count as rejected events on the routes that take events, sends and FCM's delivery rows only.
    @Test func rejectionsCountOnTheRoutesThatTakeRecords() {
        let counting = Set(APIRoute.allCases.filter(\.countsRejectedEvents).map(\.path))
        #expect(counting == [
            "/v1/receipts", "/v1/actions", "/v1/sessions", "/v1/conversions", "/v1/pushes", "/v1/pushes/:push_id",
            "/v1/pushes/:push_id/sends", "/v1/pushes/:push_id/deliveries", "/v1/delivery/fcm",
        ])
    }
}
