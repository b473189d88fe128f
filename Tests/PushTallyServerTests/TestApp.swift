import Foundation
import PushTallyTestSupport
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import PushTallyPostgres
import PushTallyStores
import PushTallyServer

/// A fresh store of one kind (``FreshStore``), opened, with a token of every role.
struct TestFixture: Sendable {
    let store: any PushTallyStore
    let tokens: [Role: String]
    /// Where the store lives: its folder and, on PostgreSQL, its database.
    let fresh: FreshStore

    func bearer(_ role: Role) -> HTTPFields {
        [.authorization: "Bearer \(tokens[role]!)"]
    }

    static func make(
        _ configuration: StoreConfiguration = StoreConfiguration(), kind: StoreKind = .sqlite
    ) async throws -> TestFixture {
        let fresh = try await FreshStore.make(kind, name: "server")
        let store: any PushTallyStore
        do {
            store = try await fresh.open(configuration)
        } catch {
            await fresh.remove()
            throw error
        }
        var tokens: [Role: String] = [:]
        do {
            for role in Role.allCases {
                tokens[role] = try await store.createToken(role: role, label: "test").token
            }
        } catch {
            await TestFixture(store: store, tokens: [:], fresh: fresh).cleanUp()
            throw error
        }
        return TestFixture(store: store, tokens: tokens, fresh: fresh)
    }

    /// For a `defer`: the store closes on a thread of its own (``StoreLifecycle/closeInBackground()``).
    func tearDown() {
        store.closeInBackground()
        try? FileManager.default.removeItem(at: fresh.directory)
    }

    /// Closes the store, removes its files, and drops the PostgreSQL database when there is one.
    func cleanUp() async {
        await store.shutdown()
        await fresh.remove()
    }
}

/// How a test reaches the ingest routes: through the router alone, or over a real socket to the server as
/// `pushtally serve` runs it, where the fast path (``IngestFastPath``) answers them. Ingest tests run both.
enum IngestPath: String, CaseIterable, Sendable, CustomStringConvertible {
    case router
    case fastPath

    var setup: TestingSetup { self == .router ? .router : .live }
    var description: String { rawValue }
}

/// Where an ingest test runs: through one ``IngestPath`` into one store. Ingest and hostile-input tests run on
/// every pair, because what a receipt stores (dedupe, batches, rollups, overload) is each store's own code.
struct IngestTarget: Sendable, CustomStringConvertible {
    let path: IngestPath
    let store: StoreKind

    static let all = IngestPath.allCases.flatMap { path in StoreKind.allCases.map { IngestTarget(path: path, store: $0) } }
    var description: String { "\(path) on \(store)" }
}

/// `withApp` for an ingest test's route and store.
func withApp(
    _ target: IngestTarget, configuration: ServerConfiguration = ServerConfiguration(port: 0),
    store storeConfiguration: StoreConfiguration = StoreConfiguration(),
    _ body: @Sendable (any TestClientProtocol, TestFixture) async throws -> Void
) async throws {
    try await withApp(target.path.setup, configuration: configuration, store: storeConfiguration, storeKind: target.store, body)
}

/// Runs `body` against the app built exactly as `pushtally serve` builds it.
func withApp(
    _ testing: TestingSetup = .router, configuration: ServerConfiguration = ServerConfiguration(port: 0),
    store storeConfiguration: StoreConfiguration = StoreConfiguration(), storeKind: StoreKind = .sqlite,
    _ body: @Sendable (any TestClientProtocol, TestFixture) async throws -> Void
) async throws {
    let fixture = try await TestFixture.make(storeConfiguration, kind: storeKind)
    // No route test is about the store deadlines; the suite's own load must not trip them (a 503 for a busy machine).
    var configuration = configuration
    configuration.storeDeadlines = StoreDeadlines(request: .seconds(600))
    do {
        let app = try buildApplication(configuration: configuration, store: fixture.store)
        try await app.test(testing) { client in try await body(client, fixture) }
    } catch {
        await fixture.cleanUp()
        throw error
    }
    await fixture.cleanUp()
}

extension TestClientProtocol {
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], body: String? = nil
    ) async throws -> TestResponse {
        try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    @discardableResult
    func form(_ uri: String, _ body: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await send(.post, uri, headers: headers, body: body)
    }

    @discardableResult
    func json(_ method: HTTPRequest.Method, _ uri: String, _ body: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/json"
        return try await send(method, uri, headers: headers, body: body)
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The body as a JSON object (or an empty one when it is not).
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }

    /// The `error` code of a JSON error body.
    var errorCode: String? { object["error"] as? String }
    var errorField: String? { object["field"] as? String }
}

/// The campaign report's rows, as JSON objects keyed by campaign (orphans under "").
func campaignRows(_ client: any TestClientProtocol, _ fixture: TestFixture, query: String = "") async throws -> [String: [String: Any]] {
    let response = try await client.send(.get, "/v1/reports/campaigns\(query)", headers: fixture.bearer(.read))
    let rows = response.object["campaigns"] as? [[String: Any]] ?? []
    return Dictionary(uniqueKeysWithValues: rows.map { (($0["campaign"] as? String) ?? "", $0) })
}
