import Foundation
import PushTallyTestSupport
import Testing

@testable import PushTallyKit

/// Outbox files the previous version of the Kit (receipts and actions only) wrote with its own
/// `Outbox.append`: a display and a tap, as they may still wait on a phone when the app updates.
func previousVersionFiles() throws -> [URL] {
    let folder = try #require(Bundle.module.url(forResource: "Fixtures/outbox-previous-version", withExtension: nil))
    return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "json" }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
}

/// Queues the previous version's files in `store`, oldest first, under names of now (their own names carry
/// the time they were written, which the age bound would drop).
func queuePreviousVersionFiles(in store: URL) throws -> [Data] {
    let outbox = try Outbox(root: store)
    let now = Date()
    return try previousVersionFiles().enumerated().map { index, file in
        let name = queuedName("previous-\(index)", age: Double(10 - index), now: now)
        try FileManager.default.copyItem(at: file, to: outbox.events.appendingPathComponent(name))
        return try Data(contentsOf: file)
    }
}

@Suite struct PreviousOutboxTests {
    @Test func filesQueuedByThePreviousVersionDecodeAsTheyWere() throws {
        let files = try previousVersionFiles()
        try #require(files.count == 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let events = try files.map { try JSONDecoder().decode(OutboxEvent.self, from: Data(contentsOf: $0)) }
        #expect(events.map(\.route) == [.receipts, .actions])
        guard case .receipt(let display) = events[0], case .receipt(let tap) = events[1] else {
            Issue.record("not receipts: \(events)")
            return
        }
        #expect(display.push_id == "2018001" && display.action == nil)
        #expect(display.receipt_id == "0F8B3E52-7A41-4D9C-B6E2-91C4A7D05F13")
        #expect(display.ts == 1_763_625_600.25)
        #expect(display.platform == "ios" && display.app_version == "4.2.0" && display.os_version == "18.1")
        #expect(tap.action == "open" && tap.receipt_id == "C3D9A1E7-5B2F-4E80-8A6C-7F1D03B94E26")
        // A receipt queued now is written exactly as before, so both versions read each other's receipts.
        for (event, file) in zip(events, files) {
            #expect(try encoder.encode(event) == Data(contentsOf: file))
        }
    }

    /// The previous version posted each file's JSON as it was (one NDJSON line): so does this one.
    @Test func filesQueuedByThePreviousVersionArePostedAsBefore() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let contents = try queuePreviousVersionFiles(in: store)
        let endpoint = standInEndpoint()
        let client = try recordingClient(store, endpoint: endpoint, .accept(failingFirst: 0))
        let report = await client.flush()
        #expect(report.sent == 2 && report.pending == 0)
        let exchanges = RecordingURLProtocol.exchanges(for: endpoint)
        #expect(exchanges.map(\.path) == ["/v1/receipts", "/v1/actions"])
        #expect(exchanges.map(\.body) == contents)
    }

    /// Against the real collector: the previous version's files arrive with every field.
    @Test func filesQueuedByThePreviousVersionReachTheCollector() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        _ = try queuePreviousVersionFiles(in: store)
        let client = try PushTallyClient(endpoint: server.baseURL, storeDirectory: store, configuration: kitConfiguration())
        let report = await client.flush()
        #expect(report.sent == 2 && report.pending == 0 && report.rejected == 0)
        #expect(try await server.stop() == 0)
        let rows = try storedEvents(server.databasePath)
        try #require(rows.count == 2)
        #expect(rows.map { $0["push_id"] as String } == ["2018001", "2018001"])
        #expect(rows.map { $0["kind"] as Int } == [0, 1])  // a display, then an action
        #expect(rows[1]["action"] == "open")
        #expect(rows.map { $0["receipt_id"] as String } == ["0F8B3E52-7A41-4D9C-B6E2-91C4A7D05F13", "C3D9A1E7-5B2F-4E80-8A6C-7F1D03B94E26"])
        #expect(rows.allSatisfy { $0["platform"] == "ios" && $0["app_version"] == "4.2.0" && $0["os_version"] == "18.1" })
        #expect(rows.allSatisfy { $0["duplicate"] == false })
    }
}
