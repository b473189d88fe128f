import Foundation
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

/// Claims, attempts, replays and pruning, on messages queued by registrations (queued at once, no packing).
@Suite struct WebhookDeliveryStoreTests {
    let policy = WebhookRetryPolicy(baseDelayMillis: 5_000, maximumDelayMillis: 60_000, windowMillis: 600_000)

    /// Registers `count` pushes a second apart, each queuing one `push.registered` per subscribed endpoint.
    func queue(_ count: Int, on store: any TestStore, clock: TestClock) async throws {
        for n in 0..<count {
            try await store.register(PushRegistration(pushID: "p\(n)", campaign: "c"))
            clock.advance(seconds: 1)
        }
    }

    /// Claims at `now`, oldest message first (ids are time-ordered).
    func claim(_ store: any TestStore, at now: Int64, limit: Int = 10) async throws -> [ClaimedDelivery] {
        try await store.claimDeliveries(now: now, leaseMillis: 25_000, limit: limit).sorted { $0.messageID < $1.messageID }
    }

    func status(_ store: any TestStore, _ id: String = "wh_a") async throws -> WebhookEndpointStatus? {
        try await store.webhooks().first { $0.id == id }?.status
    }

    @Test(arguments: StoreKind.allCases) func claimsAreLeased(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_a", [.pushRegistered], at: clock.now)
            let queuedAt = clock.now
            try await queue(1, on: store, clock: clock)
            #expect(try await claim(store, at: queuedAt - 1).isEmpty)
            let first = try await claim(store, at: queuedAt)
            #expect(first.count == 1)
            let claimed = try #require(first.first)
            #expect(claimed.url == "https://hooks.example.com/wh_a" && claimed.endpointID == "wh_a")
            #expect(claimed.secret == "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
            #expect(try jsonObject(claimed.body)["type"] as? String == "push.registered")
            #expect(claimed.attempts == 0 && claimed.firstAttemptMillis == nil)
            // Another collector asking within the lease gets nothing; once it is over, the same message.
            #expect(try await claim(store, at: queuedAt + 24_999).isEmpty)
            let again = try await claim(store, at: queuedAt + 25_000)
            #expect(again.map(\.messageID) == [claimed.messageID])
            #expect(again.first?.body == claimed.body)
        }
    }

    @Test(arguments: StoreKind.allCases) func attemptsSetDeliveryAndEndpointStatus(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_a", [.pushRegistered], at: clock.now)
            try await queue(4, on: store, clock: clock)
            let t = clock.now
            let claimed = try await claim(store, at: t)
            #expect(claimed.count == 4)
            let (failing, recovering, gone, waiting) = (claimed[0], claimed[1], claimed[2], claimed[3])

            // A 500 within the window: pending, retried later; the endpoint stays active.
            let retry = DeliveryUpdate(.failed(status: 500, error: "500 Internal Server Error"), of: failing, at: t, policy: policy)
            try await store.recordAttempt(failing, update: retry, at: t)
            var listed = try await store.deliveries(webhookID: "wh_a", status: .pending, limit: 10)
            let pending = try #require(listed.first { $0.messageID == failing.messageID })
            #expect(pending.attempts == 1 && pending.lastHTTPStatus == 500 && pending.lastError == "500 Internal Server Error")
            #expect(pending.lastAttemptMillis == t && pending.nextAttemptMillis == retry.nextAttemptMillis)
            #expect(try await status(store) == .active)
            let next = try #require(retry.nextAttemptMillis)
            let retried = try #require(try await claim(store, at: next).first { $0.messageID == failing.messageID })
            #expect(retried.attempts == 1 && retried.firstAttemptMillis == t)

            // Still failing at the window's end: failed, and the endpoint failing.
            let end = t + policy.windowMillis
            let last = DeliveryUpdate(.failed(status: nil, error: "connection refused"), of: retried, at: end, policy: policy)
            try await store.recordAttempt(retried, update: last, at: end)
            listed = try await store.deliveries(webhookID: "wh_a", status: .failed, limit: 10)
            #expect(listed.map(\.messageID) == [failing.messageID])
            #expect(listed.first?.attempts == 2 && listed.first?.nextAttemptMillis == nil && listed.first?.lastHTTPStatus == nil)
            #expect(try await status(store) == .failing)

            // A 2xx brings a failing endpoint back.
            let ok = DeliveryUpdate(.delivered(status: 200), of: recovering, at: end, policy: policy)
            try await store.recordAttempt(recovering, update: ok, at: end)
            listed = try await store.deliveries(webhookID: "wh_a", status: .delivered, limit: 10)
            #expect(listed.map(\.messageID) == [recovering.messageID] && listed.first?.deliveredAtMillis == end)
            #expect(try await status(store) == .active)

            // 410 disables it for good: a later 2xx does not re-enable it, and nothing more is claimed for it.
            try await store.recordAttempt(gone, update: DeliveryUpdate(.gone, of: gone, at: end, policy: policy), at: end)
            #expect(try await status(store) == .disabled)
            try await store.recordAttempt(recovering, update: ok, at: end + 1)
            #expect(try await status(store) == .disabled)
            var stale = recovering
            stale.firstAttemptMillis = t
            let failingAgain = DeliveryUpdate(.failed(status: 500, error: "x"), of: stale, at: end + 2, policy: policy)
            #expect(failingAgain.endpointStatus == .failing)
            try await store.recordAttempt(stale, update: failingAgain, at: end + 2)
            #expect(try await status(store) == .disabled)
            listed = try await store.deliveries(webhookID: "wh_a", status: nil, limit: 10)
            #expect(listed.first { $0.messageID == gone.messageID }?.status == .failed)
            #expect(listed.first { $0.messageID == waiting.messageID }?.status == .pending)
            #expect(try await claim(store, at: end + 100_000).isEmpty)
            #expect(try await store.undelivered().count == 0)
            // And a disabled endpoint is queued nothing new.
            try await store.register(PushRegistration(pushID: "late", campaign: "c"))
            #expect(try await store.deliveries(webhookID: "wh_a", status: nil, limit: 10).count == 4)
        }
    }

    @Test(arguments: StoreKind.allCases) func replayResendsUnderTheSameIDs(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_a", [.pushRegistered], at: clock.now)
            let firstAt = clock.now
            try await queue(2, on: store, clock: clock)
            let secondAt = firstAt + 1_000
            for delivery in try await claim(store, at: clock.now) {
                let update = DeliveryUpdate(.delivered(status: 204), of: delivery, at: clock.now, policy: policy)
                try await store.recordAttempt(delivery, update: update, at: clock.now)
            }
            #expect(try await store.undelivered().count == 0)
            let before = try await store.deliveries(webhookID: "wh_a", status: nil, limit: 10)
            let replayAt = clock.now + 5_000
            #expect(try await store.replay(webhookID: "wh_a", sinceMillis: secondAt, now: replayAt) == 1)
            let after = try await store.deliveries(webhookID: "wh_a", status: nil, limit: 10)
            #expect(after.map(\.messageID) == before.map(\.messageID))
            let replayed = try #require(after.first { $0.createdAtMillis == secondAt })
            #expect(replayed.status == .pending && replayed.nextAttemptMillis == replayAt && replayed.deliveredAtMillis == nil)
            #expect(after.first { $0.createdAtMillis == firstAt }?.status == .delivered)
            let resent = try await claim(store, at: replayAt)
            #expect(resent.map(\.messageID) == [replayed.messageID] && resent.first?.firstAttemptMillis == nil)
            #expect(try await store.replay(webhookID: "wh_a", sinceMillis: firstAt, now: replayAt) == 2)
            #expect(try await store.replay(webhookID: "wh_nobody", sinceMillis: 0, now: replayAt) == 0)
        }
    }

    @Test(arguments: StoreKind.allCases) func pruningKeepsWhatIsPending(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_a", [.pushRegistered], at: clock.now)
            try await queue(3, on: store, clock: clock)
            let claimed = try await claim(store, at: clock.now)
            try await store.recordAttempt(
                claimed[0], update: DeliveryUpdate(.delivered(status: 200), of: claimed[0], at: clock.now, policy: policy), at: clock.now)
            let late = clock.now + 2 * policy.windowMillis
            var givenUp = claimed[1]
            givenUp.firstAttemptMillis = clock.now
            let failed = DeliveryUpdate(.failed(status: 503, error: "503"), of: givenUp, at: late, policy: policy)
            #expect(failed.status == .failed)
            try await store.recordAttempt(givenUp, update: failed, at: late)
            #expect(try await store.pruneDeliveries(createdBefore: clock.now) == 2)
            let left = try await store.deliveries(webhookID: "wh_a", status: nil, limit: 10)
            #expect(left.map(\.messageID) == [claimed[2].messageID] && left.first?.status == .pending)
            #expect(try await store.column("SELECT id FROM webhook_messages") == [claimed[2].messageID])
            #expect(try await store.undelivered().count == 1)
            // Only what was created before the cutoff goes.
            try await store.recordAttempt(
                claimed[2], update: DeliveryUpdate(.delivered(status: 200), of: claimed[2], at: clock.now, policy: policy), at: clock.now)
            #expect(try await store.pruneDeliveries(createdBefore: clock.now - 1_000) == 0)
            #expect(try await store.pruneDeliveries(createdBefore: clock.now) == 1)
        }
    }
}
