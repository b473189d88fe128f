import Foundation
import GRDB
import PushTallyTestSupport
import Testing

@testable import PushTallyKit

/// Sessions and conversions as the collector stored them (`EventKind` session = 2, conversion = 3).
func storedOutcomes(_ databasePath: String) throws -> [Row] {
    try DatabaseQueue(path: databasePath).read { db in
        try Row.fetchAll(db, sql: """
            SELECT kind, device_id, receipt_id, app, app_version, name, value_micros, currency, duplicate
            FROM events WHERE kind IN (2, 3) ORDER BY rowid
            """)
    }
}

/// Whether each stored event, of any kind, was a recognised retry.
func storedDuplicateFlags(_ databasePath: String) throws -> [Bool] {
    try DatabaseQueue(path: databasePath).read { db in try Bool.fetchAll(db, sql: "SELECT duplicate FROM events ORDER BY rowid") }
}

/// Sessions and conversions against the real collector on loopback, its answers read under the client's
/// URLSession (`RecordingURLProtocol` forwards each request and records the answer): `accepted`, and
/// `duplicates` for a retry, are the ingest routes' contract; the rows show what was stored.
///
/// These need `POST /v1/sessions` and `/v1/conversions` in the collector.
@Suite(.serialized) struct SessionAndConversionLiveTests {
    @Test func sessionsAndConversionsArrive() async throws {
        var configuration = kitConfiguration()
        configuration.app = "com.example.app"
        try await withCollector(configuration: configuration) { server, client in
            let session = await client.recordSession()
            #expect(session.recorded && session.sent == 1 && session.pending == 0 && session.rejected == 0)
            let purchase = await client.recordConversion(event: "purchase", value: Decimal(string: "9.99"), currency: "USD")
            #expect(purchase.recorded && purchase.sent == 1 && purchase.pending == 0 && purchase.rejected == 0)
            let signup = await client.recordConversion(event: "signup")
            #expect(signup.recorded && signup.sent == 1 && signup.pending == 0 && signup.rejected == 0)
            #expect(try await server.stop() == 0)
            let exchanges = RecordingURLProtocol.exchanges(for: server.baseURL)
            #expect(exchanges.map(\.path) == ["/v1/sessions", "/v1/conversions", "/v1/conversions"])
            #expect(exchanges.map(\.status) == [200, 200, 200])
            for exchange in exchanges {
                #expect(try exchange.batchAnswer() == BatchAnswer(accepted: 1, duplicates: 0, rejected: []))
            }
            let posted = try exchanges.map { try #require(try $0.objects().first) }
            let rows = try storedOutcomes(server.databasePath)
            try #require(rows.count == 3)
            #expect(rows.map { $0["kind"] as Int } == [2, 3, 3])
            #expect(rows.allSatisfy { $0["duplicate"] == false })
            #expect(Set(rows.map { $0["device_id"] as String }).count == 1)  // one install id, hashed by the server
            #expect(rows[0]["receipt_id"] as String? == posted[0]["session_id"] as? String)
            #expect(rows[0]["app"] == "com.example.app" && rows[0]["app_version"] == "2.1")
            #expect(rows[1]["name"] == "purchase" && rows[1]["currency"] == "USD")
            #expect(rows[1]["value_micros"] as Int64? == 9_990_000)  // 9.99 exactly
            #expect(rows[1]["receipt_id"] as String? == posted[1]["conversion_id"] as? String)
            #expect(rows[2]["name"] == "signup" && rows[2]["value_micros"] as Int64? == nil && rows[2]["currency"] as String? == nil)
            #expect((rows[2]["receipt_id"] as String?).flatMap(UUID.init(uuidString:)) != nil)  // the id the client made up
        }
    }

    /// `recordSession(notificationPermission:)` posts the setting under the collector's names, and the
    /// collector stores it; a session without one sends none.
    @Test func aSessionCarriesTheNotificationSetting() async throws {
        try await withCollector { server, client in
            let settings: [PushTallyKit.NotificationPermission?] = PushTallyKit.NotificationPermission.allCases + [nil]
            for setting in settings {
                let report = await client.recordSession(notificationPermission: setting)
                #expect(report.recorded && report.sent == 1 && report.rejected == 0)
            }
            #expect(try await server.stop() == 0)
            let names: [String?] = ["authorized", "provisional", "ephemeral", "denied", "not_determined", nil]
            let posted = try RecordingURLProtocol.exchanges(for: server.baseURL).map { try #require(try $0.objects().first) }
            #expect(posted.map { $0["notification_permission"] as? String } == names)
            #expect(posted.last?.keys.contains("notification_permission") == false)
            let stored = try await DatabaseQueue(path: server.databasePath).read { db in
                try String?.fetchAll(db, sql: "SELECT notification_permission FROM events WHERE kind = 2 ORDER BY rowid")
            }
            #expect(stored == names)
        }
    }

    @Test func aSessionRetriedAfterALostAnswerCountsOnce() async throws {
        try await retriedAfterALostAnswerCountsOnce(route: "/v1/sessions") { await $0.recordSession() }
    }

    @Test func aConversionRetriedAfterALostAnswerCountsOnce() async throws {
        try await retriedAfterALostAnswerCountsOnce(route: "/v1/conversions") {
            await $0.recordConversion(event: "purchase", value: Decimal(string: "9.99"), currency: "USD")
        }
    }

    /// The same check on receipts, which the collector has always taken: proves the harness on its own.
    @Test func aReceiptRetriedAfterALostAnswerCountsOnce() async throws {
        try await retriedAfterALostAnswerCountsOnce(route: "/v1/receipts") { await $0.recordDisplay(userInfo: ["push_id": "p-18"]) }
    }

    @Test func aConversionRecordedTwiceWithOneIDCountsOnce() async throws {
        try await withCollector { server, client in
            for _ in 0..<2 {
                let report = await client.recordConversion(event: "purchase", value: 5, currency: "EUR", id: "order-7")
                #expect(report.sent == 1)
            }
            #expect(try await server.stop() == 0)
            let answers = try RecordingURLProtocol.exchanges(for: server.baseURL).map { try $0.batchAnswer() }
            #expect(answers == [BatchAnswer(accepted: 1, duplicates: 0, rejected: []), BatchAnswer(accepted: 1, duplicates: 1, rejected: [])])
            #expect(try storedOutcomes(server.databasePath).map { $0["duplicate"] as Bool } == [false, true])
        }
    }

    /// The collector commits the event but its answer is lost: the client keeps the event, sends it again, and
    /// the collector recognises the retry (same id) as a duplicate.
    private func retriedAfterALostAnswerCountsOnce(
        route: String, _ record: (PushTallyClient) async -> PushTallyClient.DeliveryReport
    ) async throws {
        try await withCollector(.forward(losingFirst: 1)) { server, client in
            let first = await record(client)
            #expect(first.recorded && first.sent == 0 && first.pending == 1)
            try await Task.sleep(for: .milliseconds(100))  // past the (tiny) test backoff
            let retry = await client.flush()
            #expect(retry.sent == 1 && retry.pending == 0 && retry.rejected == 0)
            #expect(try await server.stop() == 0)
            let exchanges = RecordingURLProtocol.exchanges(for: server.baseURL)
            try #require(exchanges.count == 2)
            #expect(exchanges.map(\.path) == [route, route])
            #expect(exchanges.map(\.answered) == [false, true])
            #expect(exchanges[0].body == exchanges[1].body)  // the retry is the same event, id and all
            #expect(try exchanges[0].batchAnswer() == BatchAnswer(accepted: 1, duplicates: 0, rejected: []))
            #expect(try exchanges[1].batchAnswer() == BatchAnswer(accepted: 1, duplicates: 1, rejected: []))
            // Stored twice, the second time as a recognised retry.
            #expect(try storedDuplicateFlags(server.databasePath) == [false, true])
        }
    }

    /// A collector on loopback and a client whose requests reach it through `RecordingURLProtocol`, both removed
    /// with their files after `body`.
    private func withCollector(
        _ behaviour: RecordingURLProtocol.Behaviour = .forward(losingFirst: 0),
        configuration: PushTallyClient.Configuration = kitConfiguration(),
        _ body: (ServerProcess, PushTallyClient) async throws -> Void
    ) async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        try await body(server, try recordingClient(store, endpoint: server.baseURL, behaviour, configuration: configuration))
    }
}
