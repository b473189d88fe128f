import Foundation
import Testing

@testable import PushTallyKit

/// What the client posts for sessions and conversions, read off the wire under its URLSession: no collector
/// needed (`RecordingURLProtocol` answers like one).
@Suite struct SessionAndConversionWireTests {
    @Test func aSessionIsPostedToItsRouteWithItsFields() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let endpoint = standInEndpoint()
        var configuration = kitConfiguration()
        configuration.app = "com.example.app"
        let client = try recordingClient(store, endpoint: endpoint, .accept(failingFirst: 0), configuration: configuration)
        let before = Date().timeIntervalSince1970
        let report = await client.recordSession(id: "session-1")
        let after = Date().timeIntervalSince1970
        #expect(report.recorded && report.sent == 1 && report.pending == 0)
        let exchanges = RecordingURLProtocol.exchanges(for: endpoint)
        try #require(exchanges.count == 1)
        #expect(exchanges[0].path == "/v1/sessions")
        #expect(exchanges[0].contentType == "application/x-ndjson")
        let line = try #require(try exchanges[0].objects().first)
        #expect(Set(line.keys) == ["device_id", "session_id", "ts", "app", "app_version"])
        #expect(line["device_id"] as? String == client.installID)
        #expect(line["session_id"] as? String == "session-1")
        #expect(line["app"] as? String == "com.example.app")
        #expect(line["app_version"] as? String == "2.1")
        let ts = try #require(line["ts"] as? Double)
        // The time of the call, whole seconds at least (however long a loaded machine took to post it).
        #expect(ts >= before.rounded(.down) - 1 && ts <= after + 1)
    }

    @Test func eachSessionHasANewIDUnlessGivenOneAndABadIDRecordsNothing() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let endpoint = standInEndpoint()
        var configuration = kitConfiguration()
        configuration.app = nil
        let client = try recordingClient(store, endpoint: endpoint, .accept(failingFirst: 0), configuration: configuration)
        await client.recordSession()
        await client.recordSession()
        for refused in ["", String(repeating: "s", count: 129), "tab\tinside"] {
            #expect(!(await client.recordSession(id: refused)).recorded)
        }
        #expect(await client.recordSession(id: String(repeating: "s", count: 128)).recorded)
        let lines = try RecordingURLProtocol.exchanges(for: endpoint).flatMap { try $0.objects() }
        let ids = lines.compactMap { $0["session_id"] as? String }
        #expect(ids.count == 3 && Set(ids).count == 3)
        #expect(ids.prefix(2).allSatisfy { UUID(uuidString: $0) != nil })
        #expect(lines.allSatisfy { $0["app"] == nil })  // no bundle identifier configured: the field is left out
    }

    @Test func theDefaultAppIsTheBundleIdentifier() {
        #expect(PushTallyClient.Configuration().app == Bundle.main.bundleIdentifier)
    }

    @Test func aConversionIsPostedWithItsValueDigitsExact() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let endpoint = standInEndpoint()
        let client = try recordingClient(store, endpoint: endpoint, .accept(failingFirst: 0))
        let price = try #require(Decimal(string: "9.99"))
        #expect(await client.recordConversion(event: "purchase", value: price, currency: "usd", id: "order-1").sent == 1)
        // More significant digits than a Double holds (it would say 999999999.1234568): any trip through
        // Double would change them.
        let large = try #require(Decimal(string: "999999999.123456789"))
        #expect(await client.recordConversion(event: "purchase", value: large, currency: "EUR").sent == 1)
        let exchanges = RecordingURLProtocol.exchanges(for: endpoint)
        #expect(exchanges.map(\.path) == ["/v1/conversions", "/v1/conversions"])
        let raw = exchanges.flatMap { $0.lines() }
        try #require(raw.count == 2)
        #expect(raw[0].contains(#""value":9.99}"#) || raw[0].contains(#""value":9.99,"#))
        #expect(raw[1].contains(#""value":999999999.123456789"#))
        struct Line: Decodable { let value: Decimal }
        #expect(try JSONDecoder().decode(Line.self, from: Data(raw[0].utf8)).value == price)
        let line = try #require(try exchanges[0].objects().first)
        #expect(Set(line.keys) == ["device_id", "event", "value", "currency", "conversion_id", "ts"])
        #expect(line["event"] as? String == "purchase")
        #expect(line["currency"] as? String == "USD")  // sent in capitals
        #expect(line["conversion_id"] as? String == "order-1")
        #expect(line["device_id"] as? String == client.installID)
    }

    /// The outbox file keeps the digits as a string: read back on an Apple platform before iOS 17, a JSON
    /// number would come through Double.
    @Test func aQueuedValueKeepsItsDigitsAsAString() throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let outbox = try Outbox(root: store)
        let conversion = try #require(
            ConversionEvent(event: "purchase", value: Decimal(string: "0.10"), currency: "USD", id: "c", deviceID: "d", ts: 1))
        let name = try outbox.append(.conversion(conversion), now: Date())
        let file = String(decoding: try Data(contentsOf: outbox.events.appendingPathComponent(name)), as: UTF8.self)
        #expect(file.hasPrefix(#"{"conversion":{"#))
        #expect(file.contains(#""value":"0.1"#))
        #expect(outbox.read(name) == .conversion(conversion))
    }

    @Test func aConversionWithoutAnIDGetsOneAndItsRetryCarriesTheSameOne() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let endpoint = standInEndpoint()
        let client = try recordingClient(store, endpoint: endpoint, .accept(failingFirst: 1))
        let first = await client.recordConversion(event: "signup")
        #expect(first.recorded && first.sent == 0 && first.pending == 1)
        let outbox = try Outbox(root: store)
        guard case .conversion(let queued) = try #require(outbox.names().first.flatMap(outbox.read)) else {
            Issue.record("the queued event is not a conversion")
            return
        }
        #expect(UUID(uuidString: queued.conversion_id) != nil)
        try await Task.sleep(for: .milliseconds(100))  // past the (tiny) test backoff
        #expect(await client.flush().sent == 1)
        let posted = try RecordingURLProtocol.exchanges(for: endpoint).flatMap { try $0.objects() }
        #expect(posted.map { $0["conversion_id"] as? String } == [queued.conversion_id, queued.conversion_id])
        // A second call is a second conversion.
        await client.recordConversion(event: "signup")
        let third = try #require(try RecordingURLProtocol.exchanges(for: endpoint).last?.objects().first)
        #expect(third["conversion_id"] as? String != queued.conversion_id)
    }

    @Test func conversionsTheCollectorWouldRefuseAreNotRecorded() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let endpoint = standInEndpoint()
        let client = try recordingClient(store, endpoint: endpoint, .accept(failingFirst: 0))
        let one = Decimal(1)
        let billion = Decimal(1_000_000_000)
        let refused: [(event: String, value: Decimal?, currency: String?, id: String?)] = [
            ("", nil, nil, nil), (String(repeating: "é", count: 33), nil, nil, nil),  // 66 bytes of UTF-8
            ("new\nline", nil, nil, nil), ("purchase", nil, nil, String(repeating: "i", count: 129)),
            ("purchase", nil, nil, "nul\u{0}"), ("purchase", -one, "USD", nil), ("purchase", .nan, "USD", nil),
            ("purchase", billion + Decimal(string: "0.01")!, "USD", nil), ("purchase", one, nil, nil),
            ("trial", nil, "USD", nil), ("purchase", one, "US", nil), ("purchase", one, "US1", nil),
            ("purchase", one, "ÉUR", nil),
        ]
        for conversion in refused {
            let report = await client.recordConversion(
                event: conversion.event, value: conversion.value, currency: conversion.currency, id: conversion.id)
            #expect(!report.recorded, "\(conversion)")
        }
        #expect(RecordingURLProtocol.exchanges(for: endpoint).isEmpty)
        #expect(await client.recordConversion(event: String(repeating: "e", count: 64), value: 0, currency: "JPY").recorded)
        #expect(await client.recordConversion(event: "big", value: billion, currency: "USD", id: String(repeating: "i", count: 128)).recorded)
        #expect(await client.recordConversion(event: "signup", id: "").recorded)
        let exchanges = RecordingURLProtocol.exchanges(for: endpoint)
        #expect(exchanges.count == 3)
        // An empty id is no id: one is made up.
        let made = try #require(try exchanges.last?.objects().first?["conversion_id"] as? String)
        #expect(UUID(uuidString: made) != nil)
    }

    @Test func aFlushSendsOneRequestPerRouteAndBatchOldestFirst() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let outbox = try Outbox(root: store)
        let start = Date()
        func session(_ id: String) -> OutboxEvent { .session(SessionEvent(device_id: "d", session_id: id, ts: 1)) }
        var action = ReceiptEvent(push_id: "a1", action: "open", device_id: "d", receipt_id: "r-a1", ts: 1)
        action.platform = "ios"
        let conversion = try #require(ConversionEvent(event: "purchase", value: nil, currency: nil, id: "c1", deviceID: "d", ts: 1))
        let queue: [OutboxEvent] = [
            fixedEvent("p1"), session("s1"), .conversion(conversion), .receipt(action), session("s2"), fixedEvent("p2"),
            session("s3"),
        ]
        for (index, event) in queue.enumerated() {
            try outbox.append(event, now: start.addingTimeInterval(Double(index)))
        }
        let endpoint = standInEndpoint()
        var configuration = kitConfiguration()
        configuration.batchSize = 2
        let client = try recordingClient(store, endpoint: endpoint, .accept(failingFirst: 0), configuration: configuration)
        let report = await client.flush()
        #expect(report.sent == 7 && report.pending == 0)
        let exchanges = RecordingURLProtocol.exchanges(for: endpoint)
        #expect(exchanges.map(\.path) == ["/v1/receipts", "/v1/sessions", "/v1/sessions", "/v1/conversions", "/v1/actions"])
        let ids = try exchanges.map { try $0.objects().map { ($0["push_id"] ?? $0["session_id"] ?? $0["conversion_id"]) as? String } }
        #expect(ids == [["p1", "p2"], ["s1", "s2"], ["s3"], ["c1"], ["a1"]])
    }

    /// A collector older than sessions and conversions answers 404 on their routes: receipts still go out,
    /// and the new events wait for an upgraded collector.
    @Test func aCollectorWithoutTheNewRoutesStillTakesReceipts() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let outbox = try Outbox(root: store)
        let conversion = try #require(ConversionEvent(event: "signup", value: nil, currency: nil, id: "c1", deviceID: "d", ts: 1))
        let queue: [OutboxEvent] = [
            .session(SessionEvent(device_id: "d", session_id: "s1", ts: 1)), .conversion(conversion), fixedEvent("p1"),
        ]
        for (index, event) in queue.enumerated() {
            try outbox.append(event, now: Date().addingTimeInterval(Double(index - 10)))
        }
        let endpoint = standInEndpoint()
        let client = try recordingClient(
            store, endpoint: endpoint, .accept(failingFirst: 0, missing: ["/v1/sessions", "/v1/conversions"]))
        let old = await client.flush()
        #expect(old.sent == 1 && old.pending == 2 && old.rejected == 0)
        #expect(RecordingURLProtocol.exchanges(for: endpoint).map(\.path) == ["/v1/sessions", "/v1/conversions", "/v1/receipts"])
        // The collector is upgraded. (No backoff to wait for: the receipts' success reset it.)
        _ = RecordingURLProtocol.session(for: endpoint, .accept(failingFirst: 0))
        let upgraded = await client.flush()
        #expect(upgraded.sent == 2 && upgraded.pending == 0)
    }
}
