import Foundation
import PushTallyTestSupport
import Testing

@testable import PushTallyKit

/// A queued file name as `Outbox.append` makes it, for an event queued `age` seconds before `now`.
func queuedName(_ label: String, age: TimeInterval, now: Date) -> String {
    String(format: "%016lld", Int64((now.timeIntervalSince1970 - age) * 1000)) + "-\(label).json"
}

/// One display receipt whose encoded size depends only on the length of `pushID`.
func fixedEvent(_ pushID: String) -> OutboxEvent {
    .receipt(ReceiptEvent(push_id: pushID, action: nil, device_id: "d", receipt_id: UUID().uuidString, ts: 1_700_000_000))
}

extension OutboxEvent {
    /// A receipt's `push_id`.
    var pushID: String? {
        if case .receipt(let receipt) = self { receipt.push_id } else { nil }
    }
}

/// A client whose collector refuses every connection, so what it queues stays queued.
func offlineClient(_ store: URL, _ configuration: PushTallyClient.Configuration) throws -> PushTallyClient {
    try PushTallyClient(
        endpoint: URL(string: "http://127.0.0.1:\(refusingLoopbackPort)")!, storeDirectory: store,
        configuration: configuration)
}

@Suite struct OutboxBoundTests {
    @Test func dropsWhatIsTooOldAndTheOldestPastTheCountOrTheBytes() {
        let now = Date()
        let names = ["a", "b", "c", "d", "e"].enumerated().map { queuedName($0.element, age: Double(50 - $0.offset), now: now) }
        let sizes = Dictionary(uniqueKeysWithValues: zip(names, [10, 10, 10, 10, 10]))
        func dropped(_ bound: OutboxBound) -> [String] {
            bound.overflow(names: names, now: now, size: { sizes[$0]! }).map { String($0.dropLast(5).suffix(1)) }
        }
        #expect(dropped(OutboxBound(maxEvents: 10, maxBytes: 1000, maxAge: 100)) == [])
        #expect(dropped(OutboxBound(maxEvents: 3, maxBytes: 1000, maxAge: 100)) == ["a", "b"])
        #expect(dropped(OutboxBound(maxEvents: 10, maxBytes: 25, maxAge: 100)) == ["a", "b", "c"])
        #expect(dropped(OutboxBound(maxEvents: 10, maxBytes: 1000, maxAge: 47.5)) == ["a", "b", "c"])
        #expect(dropped(OutboxBound(maxEvents: 1, maxBytes: 1000, maxAge: 47.5)) == ["a", "b", "c", "d"])
    }

    /// Dropping is oldest first: a small old event does not survive a bigger newer one that did not fit.
    @Test func neverKeepsAnOlderEventOverANewerOne() {
        let now = Date()
        let names = ["old", "mid", "big", "new"].enumerated().map { queuedName($0.element, age: Double(10 - $0.offset), now: now) }
        // "old" alone would still fit beside "new" and "big" (65 bytes), but "mid" did not, so "old" goes too.
        let sizes = Dictionary(uniqueKeysWithValues: zip(names, [5, 10, 50, 10]))
        let bound = OutboxBound(maxEvents: 10, maxBytes: 68, maxAge: 100)
        #expect(bound.overflow(names: names, now: now, size: { sizes[$0]! }) == Array(names.prefix(2)))
        #expect(bound.overflow(names: ["no-time.json"], now: now, size: { _ in 1 }) == ["no-time.json"])
    }

    @Test func theCountBoundDropsTheOldest() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let client = try offlineClient(store, kitConfiguration(maxQueued: 5))
        for i in 0..<8 {
            await client.recordDisplay(userInfo: ["push_id": "p\(i)"], deadline: Date().addingTimeInterval(1))
        }
        let report = await client.flush()
        #expect(report.pending == 5)
        #expect(report.dropped == 3)
        #expect(client.droppedEvents == 3)
        let outbox = try Outbox(root: store)
        #expect(outbox.names().compactMap { outbox.read($0)?.pushID } == ["p3", "p4", "p5", "p6", "p7"])
    }

    @Test func theByteBoundDropsTheOldest() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let outbox = try Outbox(root: store)
        let start = Date()
        var names: [String] = []
        for i in 0..<6 {
            names.append(try outbox.append(fixedEvent("p\(i)"), now: start.addingTimeInterval(Double(i))))
        }
        let eventSize = outbox.size(of: names[0])
        #expect(eventSize > 0 && names.allSatisfy { outbox.size(of: $0) == eventSize })
        var configuration = kitConfiguration()
        configuration.maxQueuedBytes = eventSize * 3 + eventSize / 2
        let client = try offlineClient(store, configuration)
        let report = await client.flush()
        #expect(report.pending == 3)
        #expect(report.dropped == 3)
        #expect(outbox.names().compactMap { outbox.read($0)?.pushID } == ["p3", "p4", "p5"])
    }

    @Test func theAgeBoundDropsWhatIsTooOldAndKeepsCounting() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let outbox = try Outbox(root: store)
        let now = Date()
        try outbox.append(fixedEvent("week-old"), now: now.addingTimeInterval(-8 * 24 * 3600))
        try outbox.append(fixedEvent("hour-old"), now: now.addingTimeInterval(-3600))
        try outbox.append(fixedEvent("fresh"), now: now)
        var configuration = kitConfiguration()
        configuration.maxEventAge = 2 * 3600
        let client = try offlineClient(store, configuration)
        #expect(await client.flush().dropped == 1)
        #expect(outbox.names().compactMap { outbox.read($0)?.pushID } == ["hour-old", "fresh"])
        // The count is a running total kept with the outbox: a new client (another process) sees it and adds to it.
        try outbox.append(fixedEvent("stale"), now: now.addingTimeInterval(-3 * 3600))
        let another = try offlineClient(store, configuration)
        #expect(another.droppedEvents == 1)
        #expect(await another.flush().dropped == 2)
        #expect(client.droppedEvents == 2)
        #expect(outbox.names().count == 2)
    }
}
