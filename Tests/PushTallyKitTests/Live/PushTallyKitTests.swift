import Foundation
import GRDB
import PushTallyTestSupport
import Testing

@testable import PushTallyKit

/// Raw events as the collector stored them.
func storedEvents(_ databasePath: String) throws -> [Row] {
    try DatabaseQueue(path: databasePath).read { db in
        try Row.fetchAll(db, sql: "SELECT push_id, kind, action, device_id, receipt_id, platform, app_version, os_version, duplicate FROM events ORDER BY rowid")
    }
}

func temporaryStore() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-kit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func kitConfiguration(maxQueued: Int = 1000) -> PushTallyClient.Configuration {
    var configuration = PushTallyClient.Configuration()
    configuration.appVersion = "2.1"
    configuration.maxQueuedEvents = maxQueued
    configuration.baseBackoff = 0.01
    return configuration
}

@Suite struct PayloadTests {
    @Test func findsPushIDAtTheTopOrInsideTheAlert() throws {
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures/apns-payload-with-push-id", withExtension: "json"))
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [AnyHashable: Any])
        #expect(Payload.pushID(in: payload) == "2018001")
        #expect(Payload.pushID(in: ["push_id": "top", "aps": ["alert": ["push_id": "inner"]]]) == "top")
        #expect(Payload.pushID(in: ["push_id": 42]) == "42")
        #expect(Payload.pushID(in: ["aps": ["alert": "plain text"]]) == nil)
    }

    @Test func mapsApplesIdentifiers() {
        #expect(Payload.action(for: "com.apple.UNNotificationDefaultActionIdentifier") == "open")
        #expect(Payload.action(for: "com.apple.UNNotificationDismissActionIdentifier") == "dismiss")
        #expect(Payload.action(for: "favorite") == "favorite")
    }

    @Test func backoffGrowsIsCappedAndHonoursRetryAfter() {
        var backoff = Backoff()
        backoff.recordFailure(now: 0, base: 2, cap: 60, retryAfter: nil, jitter: 1)
        #expect(backoff.notBefore == 2)
        backoff.recordFailure(now: 0, base: 2, cap: 60, retryAfter: nil, jitter: 1)
        #expect(backoff.notBefore == 4)
        for _ in 0..<10 { backoff.recordFailure(now: 0, base: 2, cap: 60, retryAfter: nil, jitter: 1) }
        #expect(backoff.notBefore == 60)
        backoff.recordFailure(now: 0, base: 2, cap: 60, retryAfter: 120, jitter: 0.5)
        #expect(backoff.notBefore == 120)
        backoff.recordSuccess()
        #expect(backoff == Backoff())
    }
}

/// Against the real collector on loopback.
@Suite(.serialized) struct PushTallyClientTests {
    @Test func displayAndActionArriveWithTheirFields() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let client = try PushTallyClient(endpoint: server.baseURL, storeDirectory: store, configuration: kitConfiguration())
        let display = await client.recordDisplay(userInfo: ["aps": ["alert": ["push_id": "2018001"]]])
        #expect(display.recorded && display.sent == 1 && display.pending == 0)
        let tap = await client.recordAction(identifier: "com.apple.UNNotificationDefaultActionIdentifier", userInfo: ["push_id": "2018001"])
        #expect(tap.sent == 1)
        let none = await client.recordDisplay(userInfo: ["aps": ["alert": "no id"]])
        #expect(!none.recorded)
        #expect(try await server.stop() == 0)
        let rows = try storedEvents(server.databasePath)
        #expect(rows.count == 2)
        #expect(rows[0]["push_id"] == "2018001")
        #expect(rows[1]["action"] == "open")
        #expect(rows.allSatisfy { ($0["receipt_id"] as String?)?.count == 36 })
        #expect(rows[0]["device_id"] as String? == rows[1]["device_id"] as String?)  // one install id, hashed by the server
        #expect(rows[0]["platform"] == "ios")
        #expect(rows[0]["app_version"] == "2.1")
        #expect(rows[0]["os_version"] == DeviceInfo.osVersion())  // the default: numeric, as reports group it
    }

    /// A collector that takes the connection and never answers (a listening socket nobody reads): the
    /// extension still gets its content back by the deadline, and the receipt stays queued.
    @Test func aHangingCollectorDoesNotHoldTheExtensionPastItsDeadline() async throws {
        let (listener, port) = try boundLoopbackSocket(listening: true)
        defer { close(listener) }
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let client = try PushTallyClient(
            endpoint: URL(string: "http://127.0.0.1:\(port)")!, storeDirectory: store, configuration: kitConfiguration())
        let started = Date()
        // Over a second: Linux's URLSession truncates the request timeout to whole seconds, so a deadline under
        // one second fails the request at once and the hang would go untested.
        let report = await client.recordDisplay(userInfo: ["push_id": "hang"], deadline: started.addingTimeInterval(2.5))
        // The deadline ended it, not the 30 s cap the client puts on any request nor URLSession's idle timeout;
        // the margin between 2.5 s and 20 s is for a loaded machine, not for the client.
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(report.recorded && report.sent == 0 && report.pending == 1)
    }

    @Test func serverDownThenUpNothingLostNothingDoubleCounted() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let port = try freeLoopbackPort()
        let endpoint = URL(string: "http://127.0.0.1:\(port)")!
        let first = try PushTallyClient(endpoint: endpoint, storeDirectory: store, configuration: kitConfiguration())
        for i in 0..<5 {
            let report = await first.recordDisplay(userInfo: ["push_id": "offline-\(i)"], deadline: Date().addingTimeInterval(2))
            #expect(report.sent == 0)
        }
        #expect(await first.flush().pending == 5)
        // Keep a copy of the outbox to replay later: a send whose answer was lost.
        let snapshot = store.appendingPathComponent("replay")
        try FileManager.default.copyItem(at: store.appendingPathComponent("outbox"), to: snapshot)

        let server = try ServerProcess(extraArguments: ["--port", String(port)])
        defer { server.removeFiles() }
        try await server.start()
        // A new client on the same directory: what a restarted process sees.
        let second = try PushTallyClient(endpoint: endpoint, storeDirectory: store, configuration: kitConfiguration())
        try await Task.sleep(for: .milliseconds(100))  // past the (tiny) test backoff
        let delivered = await second.flush()
        #expect(delivered.sent == 5)
        #expect(delivered.pending == 0)
        // The lost-answer case: the same events again. The collector counts them once (receipt_id).
        for name in try FileManager.default.contentsOfDirectory(atPath: snapshot.path) {
            try FileManager.default.copyItem(at: snapshot.appendingPathComponent(name), to: store.appendingPathComponent("outbox/\(name)"))
        }
        #expect(await second.flush().sent == 5)
        #expect(try await server.stop() == 0)
        let report = try await runPushtally(["report", "pushes", "--format", "json", "--database", server.databasePath])
        let pushes = try #require((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["pushes"] as? [[String: Any]])
        #expect(pushes.map { $0["displayed"] as? Int } == Array(repeating: 2, count: 5))
        #expect(pushes.map { $0["displayed_unique"] as? Int } == Array(repeating: 1, count: 5))
    }

    @Test func oneRefusedEventDoesNotBlockTheRest() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let outbox = try Outbox(root: store)
        let client = try PushTallyClient(endpoint: server.baseURL, storeDirectory: store, configuration: kitConfiguration())
        let good = ReceiptEvent(push_id: "ok", action: nil, device_id: "d", receipt_id: UUID().uuidString, ts: Date().timeIntervalSince1970)
        var bad = good
        bad.push_id = String(repeating: "x", count: 200)  // over the collector's 128-byte limit
        bad.receipt_id = UUID().uuidString
        try outbox.append(.receipt(bad), now: Date())
        try outbox.append(.receipt(good), now: Date())
        let report = await client.flush()
        #expect(report.sent == 1)
        #expect(report.rejected == 1)
        #expect(report.pending == 0)
        #expect(try await server.stop() == 0)
        #expect(try storedEvents(server.databasePath).map { $0["push_id"] as String } == ["ok"])
    }

    @Test func twoClientsFlushingOneDirectorySendEachEventOnce() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let outbox = try Outbox(root: store)
        for i in 0..<300 {
            try outbox.append(
                .receipt(ReceiptEvent(push_id: "shared", action: nil, device_id: "d\(i)", receipt_id: "r\(i)", ts: Date().timeIntervalSince1970)),
                now: Date())
        }
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        var configuration = kitConfiguration()
        configuration.batchSize = 10
        let extensionClient = try PushTallyClient(endpoint: server.baseURL, storeDirectory: store, configuration: configuration)
        let appClient = try PushTallyClient(endpoint: server.baseURL, storeDirectory: store, configuration: configuration)
        async let a = extensionClient.flush()
        async let b = appClient.flush()
        let (first, second) = await (a, b)
        #expect(first.sent + second.sent == 300)
        #expect(try await server.stop() == 0)
        let rows = try storedEvents(server.databasePath)
        #expect(rows.count == 300)
        #expect(rows.allSatisfy { $0["duplicate"] == false })
    }
}
