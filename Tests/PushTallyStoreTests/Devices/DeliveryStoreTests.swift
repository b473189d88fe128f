import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// Per-device deliveries on both engines: counted once per push and device into the push's delivery records
/// (which then are its only counted records), each device's state kept from its latest send, and forgotten with
/// the device.
@Suite struct DeliveryStoreTests {
    /// An hour ago: within the window devices keep sends for.
    static let sentAt = Int64(Date().timeIntervalSince1970 * 1000) - 3_600_000

    static func figures(_ store: any PushTallyStore, _ pushID: String, platform: String? = nil) async throws -> Funnel {
        try #require(try await store.supersededPushFigures(ReportFilter(pushID: pushID, platform: platform)).first { $0.pushID == pushID }).funnel
    }

    @Test(arguments: StoreKind.allCases) func deliveriesCountOnceAndWinOverTheBackendsCounts(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.register(PushRegistration(
                pushID: "p-dlv", campaign: "c", sentAtMillis: Self.sentAt, app: "com.example", counts: SendCounts(targeted: 100, sent: 100)))
            let lines = [
                DeliveryLine(deviceID: "d1", platform: "ios", outcome: "accepted"),
                DeliveryLine(deviceID: "d2", platform: "ios", outcome: "Unregistered", timestampMillis: Self.sentAt + 5_000),
                DeliveryLine(deviceID: "d3", platform: "android", outcome: "accepted", recipient: "user-3"),
            ]
            #expect(try await store.recordDeliveries(pushID: "p-dlv", lines) == DeliverySummary(lines: 3, stored: 3, accepted: 2, refused: 1))
            var funnel = try await Self.figures(store, "p-dlv")
            #expect(funnel.targeted == 3 && funnel.sent == 2 && funnel.failedByReason == ["Unregistered": 1], "the deliveries, not the PUT's 100")
            let ios = try await Self.figures(store, "p-dlv", platform: "ios")
            #expect(ios.sent == 1 && ios.failedByReason == ["Unregistered": 1], "each platform's record: \(ios)")

            // The same post again, and counts posted beside: nothing changes.
            #expect(try await store.recordDeliveries(pushID: "p-dlv", lines) == DeliverySummary(lines: 3, repeated: 3))
            try await store.addSends(SendBatch(pushID: "p-dlv", batchID: "worker-1", counts: SendCounts(sent: 50)))
            try await store.register(PushRegistration(
                pushID: "p-dlv", campaign: "c", sentAtMillis: Self.sentAt, app: "com.example", counts: SendCounts(sent: 120)))
            funnel = try await Self.figures(store, "p-dlv")
            #expect(funnel.targeted == 3 && funnel.sent == 2, "no device counted twice")
            // One more device later adds to the record.
            _ = try await store.recordDeliveries(pushID: "p-dlv", [DeliveryLine(deviceID: "d4", platform: "ios", outcome: "accepted")])
            #expect(try await Self.figures(store, "p-dlv").sent == 3)

            var states = try await store.deviceStates(deviceIDs: ["d1", "d2", "d3", "never-sent"])
            #expect(Set(states.keys) == ["d1", "d2", "d3"])
            #expect(states["d2"]?.lastOutcome == "Unregistered" && states["d2"]?.lastOutcomeMillis == Self.sentAt + 5_000)
            #expect(states["d1"]?.lastOutcome == "accepted" && states["d1"]?.lastOutcomeMillis == Self.sentAt)
            #expect(states["d3"]?.recipient == "user-3" && states["d3"]?.platform == "android" && states["d3"]?.app == "com.example")
            #expect(states["d1"]?.sends.sends.map(\.pushID) == ["p-dlv"] && states["d1"]?.deviceKey.hasPrefix("d1:") == true)

            // The latest send decides the last outcome; an older push posted later does not.
            try await store.register(PushRegistration(pushID: "p-later", campaign: "c", sentAtMillis: Self.sentAt + 3_600_000))
            try await store.register(PushRegistration(pushID: "p-earlier", campaign: "c", sentAtMillis: Self.sentAt - 3_600_000))
            _ = try await store.recordDeliveries(pushID: "p-later", [DeliveryLine(deviceID: "d2", platform: "ios", outcome: "accepted")])
            _ = try await store.recordDeliveries(pushID: "p-earlier", [DeliveryLine(deviceID: "d1", platform: "ios", outcome: "BadDeviceToken")])
            states = try await store.deviceStates(deviceIDs: ["d1", "d2"])
            #expect(states["d2"]?.lastOutcome == "accepted", "a later send's acceptance")
            #expect(states["d1"]?.lastOutcome == "accepted", "an earlier send's refusal posted later leaves it")
            #expect(states["d1"]?.sends.sends.map(\.pushID) == ["p-earlier", "p-dlv"], "sends in send order")
            #expect(try await Self.figures(store, "p-earlier").failedByReason == ["BadDeviceToken": 1])

            // Forgotten with the device.
            _ = try await store.forget(deviceID: "d1")
            #expect(try await store.deviceStates(deviceIDs: ["d1", "d2"]).keys.sorted() == ["d2"])
        }
    }

    /// Only the deliveries' own prefix, byte for byte, marks a deliveries record: a sender's batch named in
    /// another case is counted as any batch, alike on both engines.
    @Test(arguments: StoreKind.allCases) func onlyTheExactPrefixMarksADeliveriesRecord(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.register(PushRegistration(pushID: "p-case", campaign: "c", sentAtMillis: Self.sentAt, counts: SendCounts(sent: 10)))
            try await store.addSends(SendBatch(pushID: "p-case", batchID: "Deliveries:ios", counts: SendCounts(sent: 5)))
            #expect(try await Self.figures(store, "p-case").sent == 15)
        }
    }

    @Test(arguments: StoreKind.allCases) func aPushNobodyRegisteredIsRefused(kind: StoreKind) async throws {
        try await withStore(kind) { (store: any TestStore) async throws in
            await #expect(throws: StoreError.pushNotRegistered(pushID: "p-none")) {
                try await store.recordDeliveries(pushID: "p-none", [DeliveryLine(deviceID: "d", platform: "ios", outcome: "accepted")])
            }
            #expect(try await store.deviceStates(deviceIDs: ["d"]).isEmpty, "nothing stored")
        }
    }

    /// Retention prunes the states of devices nothing was sent to or heard from since its cutoff.
    @Test(arguments: StoreKind.allCases) func retentionPrunesStatesOlderThanItsCutoff(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await store.register(PushRegistration(pushID: "p-old", campaign: "c", sentAtMillis: clock.now))
            _ = try await store.recordDeliveries(pushID: "p-old", [DeliveryLine(deviceID: "stale", platform: "ios", outcome: "accepted")])
            clock.advance(seconds: 100 * 86_400)
            try await store.register(PushRegistration(pushID: "p-new", campaign: "c", sentAtMillis: clock.now))
            _ = try await store.recordDeliveries(pushID: "p-new", [DeliveryLine(deviceID: "fresh", platform: "ios", outcome: "accepted")])
            _ = try await store.prune(receivedBefore: clock.now - 90 * 86_400_000, batchSize: 100)
            #expect(try await store.deviceStates(deviceIDs: ["stale", "fresh"]).keys.sorted() == ["fresh"])
        }
    }

    /// A post that turns devices rejected queues one `device.rejected` message naming them by their recipient; a
    /// device rejected already, or accepted, is in none.
    @Test(arguments: StoreKind.allCases) func devicesTurnedRejectedAreAWebhookMessage(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_dev", [.deviceRejected], at: clock.now)
            try await store.register(PushRegistration(pushID: "p-1", campaign: "c", sentAtMillis: clock.now - 1000, app: "com.example"))
            _ = try await store.recordDeliveries(pushID: "p-1", [
                DeliveryLine(deviceID: "a", platform: "ios", outcome: "Unregistered", timestampMillis: clock.now - 500, recipient: "user-a"),
                DeliveryLine(deviceID: "b", platform: "android", outcome: "accepted", recipient: "user-b"),
            ])
            try await store.register(PushRegistration(pushID: "p-2", campaign: "c", sentAtMillis: clock.now))
            // `a` rejected again (no news), `b` newly rejected.
            _ = try await store.recordDeliveries(pushID: "p-2", [
                DeliveryLine(deviceID: "a", platform: "ios", outcome: "Unregistered"),
                DeliveryLine(deviceID: "b", platform: "android", outcome: "UNREGISTERED"),
            ])
            let claimed = try await store.claimDeliveries(now: clock.now, leaseMillis: 25_000, limit: 10).sorted { $0.messageID < $1.messageID }
            #expect(claimed.count == 2)
            let bodies = try claimed.map { try jsonObject($0.body) }
            #expect(bodies.allSatisfy { $0["type"] as? String == "device.rejected" })
            // Both queued at one clock time: in push order.
            let devices = bodies.map { (($0["data"] as? [String: Any])?["devices"] as? [[String: Any]]) ?? [] }
                .sorted { ($0.first?["push_id"] as? String ?? "") < ($1.first?["push_id"] as? String ?? "") }
            #expect(devices.map { $0.compactMap { $0["recipient"] as? String } } == [["user-a"], ["user-b"]], "\(devices)")
            #expect(devices.first?.first?["outcome"] as? String == "Unregistered" && devices.first?.first?["push_id"] as? String == "p-1")
            #expect(devices.first?.first?["outcome_at"] as? String == Timestamp.iso8601(millis: clock.now - 500))
            #expect(devices.last?.first?["platform"] as? String == "android" && devices.last?.first?["push_id"] as? String == "p-2")
        }
    }

    /// A device that goes 30 days without a display or a session after its client was heard from is named once
    /// in `device.gone`; once more only after it came back and left again. Rejected and unknown devices never are.
    @Test(arguments: StoreKind.allCases) func devicesTurnedGoneAreNamedOnce(kind: StoreKind) async throws {
        let clock = TestClock()
        let day: Int64 = 86_400
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_gone", [.deviceGone], at: clock.now)
            var session = IncomingEvent(pushID: "", kind: .session, deviceID: "g", receiptID: "s-1")
            session.app = "com.example"
            _ = try await store.ingest([session])
            func send(_ pushID: String, _ devices: [(String, String)]) async throws {
                try await store.register(PushRegistration(pushID: pushID, campaign: "c", sentAtMillis: clock.now, app: "com.example"))
                _ = try await store.recordDeliveries(
                    pushID: pushID, devices.map { DeliveryLine(deviceID: $0.0, platform: "android", outcome: $0.1, recipient: "user-" + $0.0) })
            }
            try await send("p-1", [("g", "accepted"), ("never-heard", "accepted"), ("refused", "UNREGISTERED")])
            #expect(try await store.notifyGoneDevices(nowMillis: clock.now) == 0, "heard from today")
            clock.advance(seconds: 31 * day)
            try await send("p-2", [("g", "accepted"), ("never-heard", "accepted"), ("refused", "UNREGISTERED")])
            #expect(try await store.notifyGoneDevices(nowMillis: clock.now) == 1)
            #expect(try await store.notifyGoneDevices(nowMillis: clock.now) == 0, "named once")
            let claimed = try await store.claimDeliveries(now: clock.now, leaseMillis: 25_000, limit: 10)
            let body = try jsonObject(try #require(claimed.first).body)
            #expect(claimed.count == 1 && body["type"] as? String == "device.gone")
            let devices = (body["data"] as? [String: Any])?["devices"] as? [[String: Any]]
            #expect(devices?.map { $0["recipient"] as? String } == ["user-g"] && devices?.first?["platform"] as? String == "android")

            // It comes back, then leaves again: named a second time.
            clock.advance(seconds: 60)
            var back = session
            back.receiptID = "s-2"
            _ = try await store.ingest([back])
            #expect(try await store.notifyGoneDevices(nowMillis: clock.now) == 0)
            clock.advance(seconds: 31 * day)
            try await send("p-3", [("g", "accepted")])
            #expect(try await store.notifyGoneDevices(nowMillis: clock.now) == 1)
        }
    }
}
