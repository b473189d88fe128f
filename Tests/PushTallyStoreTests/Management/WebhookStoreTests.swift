import Foundation
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

/// A JSON object as a receiver would parse it.
func jsonObject(_ text: String?) throws -> [String: Any] {
    let text = try #require(text)
    return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

/// An endpoint receiving `events`, stored through the store (so PostgreSQL's subscription cache is invalidated).
func subscribe(_ store: any TestStore, _ id: String, _ events: [WebhookEventType], at millis: Int64) async throws {
    let endpoint = WebhookEndpoint(
        id: id, url: "https://hooks.example.com/\(id)", events: events, description: nil, createdAtMillis: millis, status: .active)
    try await store.createWebhook(endpoint, secret: "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
}

extension TestStore {
    /// Events waiting in the outbox.
    func outboxEvents() async throws -> Int64 {
        try await integers("SELECT CAST(coalesce(sum(count), 0) AS BIGINT) FROM webhook_outbox").first ?? -1
    }

    /// The `data.events` counts of every message.
    func messageEventCounts() async throws -> [Int] {
        try await column("SELECT body FROM webhook_messages").map { body in
            try #require((try jsonObject(body)["data"] as? [String: Any])?["events"] as? [Any]).count
        }
    }
}

@Suite struct WebhookOutboxStoreTests {
    @Test(arguments: StoreKind.allCases) func ingestQueuesOnlyNewEventsOfSubscribedTypes(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_a", [.receiptDisplayed], at: clock.now)
            let flags = try await store.ingest([
                receipt("p1", device: "d1", receipt: "r1"), receipt("p1", device: "d1", receipt: "r1"), receipt("p1", device: "d2"),
                action("p1", "open", device: "d1"),
            ])
            #expect(flags == [false, true, false, false])
            let rows = try await store.textRows("SELECT type, count, created_at FROM webhook_outbox")
            #expect(rows == [["receipt.displayed", "2", String(clock.now)]])
            // What the events become once packed (SQLite builds their JSON then, PostgreSQL at commit).
            #expect(try await store.packOutbox(now: clock.now, fillMillis: 0) == 1)
            let body = try jsonObject(try await store.column("SELECT body FROM webhook_messages").first ?? nil)
            let items = try #require((body["data"] as? [String: Any])?["events"] as? [[String: Any]])
            #expect(items.map { $0["receipt_id"] as? String } == ["r1", nil])
            // The device id as stored (keyed), never the raw one.
            let keyed = try await store.column("SELECT device_id FROM events WHERE kind = 0 AND NOT duplicate ORDER BY receipt_id IS NULL")
            #expect(items.map { $0["device_id"] as? String } == keyed)
            #expect(!keyed.contains("d1") && !keyed.contains("d2") && !keyed.contains(nil))
            // A retry alone queues nothing.
            #expect(try await store.ingest([receipt("p1", device: "d1", receipt: "r1")]) == [true])
            #expect(try await store.outboxEvents() == 0)
        }
    }

    @Test(arguments: StoreKind.allCases) func nothingIsQueuedWhenNobodySubscribes(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            _ = try await store.ingest([receipt("p1", device: "d1"), action("p1", "open", device: "d1")])
            try await subscribe(store, "wh_a", [.pushRegistered, .alertFiring], at: clock.now)
            _ = try await store.ingest([receipt("p1", device: "d2"), action("p1", "open", device: "d2")])
            #expect(try await store.integers("SELECT count(*) FROM webhook_outbox") == [0])
            #expect(try await store.packOutbox(now: clock.now + 60_000, fillMillis: 0) == 0)
            #expect(try await store.integers("SELECT count(*) FROM webhook_messages") == [0])
        }
    }

    @Test(arguments: StoreKind.allCases) func packingWaitsForTheFillTimeOrAFullBatch(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_a", [.receiptDisplayed], at: clock.now)
            try await subscribe(store, "wh_b", [.receiptDisplayed, .actionTapped], at: clock.now)
            _ = try await store.ingest((0..<3).map { receipt("p1", device: "d\($0)") })
            #expect(try await store.packOutbox(now: clock.now + 499, fillMillis: 500) == 0)
            #expect(try await store.outboxEvents() == 3)
            // One message, a delivery for each endpoint.
            #expect(try await store.packOutbox(now: clock.now + 500, fillMillis: 500) == 2)
            #expect(try await store.outboxEvents() == 0)
            #expect(try await store.messageEventCounts() == [3])
            for id in ["wh_a", "wh_b"] {
                let listed = try await store.deliveries(webhookID: id, status: nil, limit: 10)
                #expect(listed.map(\.type) == [.receiptDisplayed] && listed.map(\.status) == [.pending])
                #expect(listed.first?.createdAtMillis == clock.now + 500 && listed.first?.attempts == 0)
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func aFullBatchIsPackedAtOnceInMessagesOfAtMostFiveHundred(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_a", [.receiptDisplayed], at: clock.now)
            _ = try await store.ingest((0..<1201).map { receipt("p1", device: "d\($0)") })
            #expect(try await store.outboxEvents() == 1201)
            let queued = try await store.packOutbox(now: clock.now, fillMillis: 3_600_000)
            let counts = try await store.messageEventCounts()
            #expect(queued == counts.count)
            #expect(counts.reduce(0, +) == 1201)
            // Messages queued together share a timestamp, so their order is their ids' random tails.
            #expect(counts.allSatisfy { $0 <= 500 } && counts.contains(500), "\(counts)")
            #expect(try await store.outboxEvents() == 0)
            // Below a full batch and the fill time, nothing more is packed.
            _ = try await store.ingest([receipt("p1", device: "late")])
            #expect(try await store.packOutbox(now: clock.now, fillMillis: 3_600_000) == 0)
        }
    }

    @Test(arguments: StoreKind.allCases) func registrationsQueuePushRegistered(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await store.register(PushRegistration(pushID: "p0", campaign: "c"))
            try await subscribe(store, "wh_a", [.pushRegistered], at: clock.now)
            let push = PushRegistration(pushID: "p1", campaign: "spring", sentAtMillis: 1_000, counts: SendCounts(targeted: 5, sent: 4))
            #expect(try await store.register(push) == .created)
            clock.advance(seconds: 1)
            #expect(try await store.register(push) == .updated)
            clock.advance(seconds: 1)
            _ = try await store.register([PushRegistration(pushID: "p2", campaign: "c")])
            let listed = try await store.deliveries(webhookID: "wh_a", status: .pending, limit: 10)
            #expect(listed.map(\.type) == [.pushRegistered, .pushRegistered, .pushRegistered])
            let bodies = try await store.column("SELECT body FROM webhook_messages ORDER BY created_at")
            let data = try bodies.map { try #require(try jsonObject($0)["data"] as? [String: Any]) }
            #expect(data.map { $0["push_id"] as? String } == ["p1", "p1", "p2"])
            #expect(data.map { $0["outcome"] as? String } == ["created", "updated", "created"])
            #expect(data[0]["campaign"] as? String == "spring" && data[0]["sent"] as? Int == 4)
            #expect(try jsonObject(bodies[0])["type"] as? String == "push.registered")
        }
    }

    @Test(arguments: StoreKind.allCases) func deletingAWebhookRemovesItsDeliveries(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_a", [.pushRegistered], at: clock.now)
            try await subscribe(store, "wh_b", [.pushRegistered], at: clock.now + 1)
            try await store.register(PushRegistration(pushID: "p1", campaign: "c"))
            #expect(try await store.deleteWebhook(id: "wh_a"))
            #expect(try await !store.deleteWebhook(id: "wh_a"))
            #expect(try await store.webhooks().map(\.id) == ["wh_b"])
            #expect(try await store.deliveries(webhookID: "wh_a", status: nil, limit: 10).isEmpty)
            #expect(try await store.integers("SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = 'wh_a'") == [0])
            #expect(try await store.deliveries(webhookID: "wh_b", status: nil, limit: 10).count == 1)
            _ = try await store.ingest([receipt("p1", device: "d1")])
            try await store.register(PushRegistration(pushID: "p2", campaign: "c"))
            #expect(try await store.integers("SELECT count(*) FROM webhook_deliveries") == [2])
        }
    }
}
