import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// Both engines' outboxes, side by side: the same sequence of receipts, taps and registrations, packed and
/// delivered at the same steps to a receiver that verifies every signature, must reach it as the same
/// payloads (message ids, times and keyed device ids aside). A push's labels are those its commit read
/// (docs/WEBHOOKS.md): an engine reading them at another moment, such as when packing, sends another campaign.
@Suite(.serialized) struct WebhookOutboxParityTests {
    static let secret = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

    @Test func bothEnginesSendTheSamePayloads() async throws {
        var payloads: [StoreKind: [String]] = [:]
        for kind in StoreKind.allCases {
            payloads[kind] = try await deliveredPayloads(kind)
        }
        let sqlite = payloads[.sqlite] ?? []
        #expect(sqlite == payloads[.postgres] ?? [], "SQLite \(sqlite) against PostgreSQL \(payloads[.postgres] ?? [])")
        // The moment itself: the receipt committed before its push was registered leaves without a campaign,
        // even though the registration came before it was packed; the one committed after leaves with it.
        let receipts = sqlite.filter { $0.hasPrefix("receipt.displayed") }
        #expect(receipts == [
            #"receipt.displayed [{"app":null,"app_version":"2.1","campaign":null,"os_version":"17.4","platform":"ios","push_id":"early","receipt_id":"r1"}]"#,
            #"receipt.displayed [{"app":null,"app_version":"2.1","campaign":null,"os_version":"17.4","platform":"ios","push_id":"racing","receipt_id":"r2"}]"#,
            #"receipt.displayed [{"app":"shop","app_version":"2.1","campaign":"spring","os_version":"17.4","platform":"ios","push_id":"racing","receipt_id":"r3"}]"#,
        ])
        #expect(sqlite.contains { $0.hasPrefix("action.tapped") && $0.contains(#""campaign":"spring""#) })
        #expect(sqlite.filter { $0.hasPrefix("push.registered") }.count == 2)
    }

    /// Runs the sequence on a fresh `kind` store and returns what the receiver got, one line per message in
    /// delivery order: its type and its data without ids, times or device ids.
    private func deliveredPayloads(_ kind: StoreKind) async throws -> [String] {
        let fixture = try await TestFixture.make(kind: kind)
        let receiver = try await WebhookReceiver()
        defer { receiver.stop() }
        try receiver.setSecret(Self.secret)
        let sender = WebhookSender(urlGuard: WebhookURLGuard(allowPrivate: true))
        do {
            let store = fixture.store
            try await store.createWebhook(
                WebhookEndpoint(
                    id: "wh_parity", url: receiver.url, events: [.receiptDisplayed, .actionTapped, .pushRegistered],
                    description: nil, createdAtMillis: Self.now(), status: .active),
                secret: Self.secret)
            var delivered = 0
            func deliver() async throws {
                let now = Self.now()
                _ = try await store.packOutbox(now: now, fillMillis: 0)
                let claimed = try await store.claimDeliveries(now: now, leaseMillis: 600_000, limit: 100)
                for delivery in claimed.sorted(by: { $0.body < $1.body }) {
                    let result = await sender.send(delivery, at: now)
                    #expect(result == .delivered(status: 200), "\(result)")
                }
                delivered += claimed.count
                try await receiver.wait(seconds: 20) { $0.count >= delivered }
            }
            // A receipt of a push not registered yet, delivered before the registration.
            #expect(try await store.ingest([Self.receipt("early", "r1", device: "d1")]) == [false])
            try await deliver()
            // A receipt committed before its push's registration, delivered after it.
            #expect(try await store.ingest([Self.receipt("racing", "r2", device: "d2")]) == [false])
            _ = try await store.register(PushRegistration(pushID: "racing", campaign: "spring", app: "shop"))
            _ = try await store.register(PushRegistration(pushID: "early", campaign: "autumn"))
            try await deliver()
            // A receipt and a tap after the registration; a retry, which carries nothing.
            #expect(try await store.ingest([
                Self.receipt("racing", "r3", device: "d3"),
                IncomingEvent(pushID: "racing", kind: .action, action: "open", deviceID: "d3", platform: "ios"),
                Self.receipt("racing", "r2", device: "d2"),
            ]) == [false, false, true])
            try await deliver()
        } catch {
            await sender.shutdown()
            await fixture.cleanUp()
            throw error
        }
        await sender.shutdown()
        await fixture.cleanUp()
        let got = receiver.received()
        #expect(got.allSatisfy { $0.verified }, "\(receiver.errors)")
        return got.map { message in
            let data = message.body["data"] as? [String: Any] ?? [:]
            let shown: Any = data["events"].map { events in
                (events as? [[String: Any]] ?? []).map { $0.filter { !["ts", "received_at", "device_id"].contains($0.key) } }
            } ?? data.filter { $0.key != "sent_at" }
            let json = (try? JSONSerialization.data(withJSONObject: shown, options: [.sortedKeys])) ?? Data()
            return message.type + " " + String(decoding: json, as: UTF8.self)
        }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func receipt(_ push: String, _ receipt: String, device: String) -> IncomingEvent {
        IncomingEvent(
            pushID: push, kind: .display, deviceID: device, receiptID: receipt, platform: "ios", appVersion: "2.1",
            osVersion: "17.4")
    }
}
