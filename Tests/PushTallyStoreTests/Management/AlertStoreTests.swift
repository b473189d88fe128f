import Foundation
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

@Suite struct AlertStoreTests {
    let rule = AlertRule(
        name: "receipts down", kind: .receiptsStopped, windowMillis: 3_600_000, threshold: 0.2, minSent: 100, campaign: "c", app: "shop")

    @Test(arguments: StoreKind.allCases) func createsListsAndRefusesATakenName(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            let first = Alert.new(rule, at: clock.now)
            try await store.createAlert(first)
            var other = rule
            other.name = "versions"
            other.kind = .versionNotPosting
            let second = Alert.new(other, at: clock.now + 1)
            try await store.createAlert(second)
            await #expect(throws: StoreError.alertNameTaken("receipts down")) {
                try await store.createAlert(Alert.new(self.rule, at: clock.now + 2))
            }
            #expect(try await store.alerts() == [first, second])
            #expect(try await store.alertHistory(id: first.id, limit: 10) == [])
            #expect(try await store.alertHistory(id: "al_nobody", limit: 10) == nil)
            #expect(try await store.deleteAlert(id: first.id))
            #expect(try await !store.deleteAlert(id: first.id))
            #expect(try await store.alerts() == [second])
            #expect(try await store.alertHistory(id: first.id, limit: 10) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases) func oneEvaluationPerInterval(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let t: Int64 = 1_795_000_000_000
            #expect(try await store.claimAlertEvaluation(now: t, intervalMillis: 60_000))
            #expect(try await !store.claimAlertEvaluation(now: t, intervalMillis: 60_000))
            #expect(try await !store.claimAlertEvaluation(now: t + 30_000, intervalMillis: 60_000))
            #expect(try await store.claimAlertEvaluation(now: t + 60_000, intervalMillis: 60_000))
            // Collectors racing for the same interval: exactly one wins.
            let later = t + 120_000
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await store.claimAlertEvaluation(now: later, intervalMillis: 60_000) }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
            async let a = store.claimAlertEvaluation(now: later + 60_000, intervalMillis: 60_000)
            async let b = store.claimAlertEvaluation(now: later + 60_000, intervalMillis: 60_000)
            #expect(try await [a, b].filter { $0 }.count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases) func transitionsAreRecordedAndSent(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            try await subscribe(store, "wh_a", [.alertFiring, .alertResolved], at: clock.now)
            try await subscribe(store, "wh_b", [.alertResolved], at: clock.now)
            let alert = Alert.new(rule, at: clock.now)
            try await store.createAlert(alert)

            let t1 = clock.now + 60_000
            let (firing, fired) = AlertReading(firing: true, value: 0.05).applied(to: alert, at: t1)
            try await store.recordEvaluation(firing, transition: fired, at: t1)
            #expect(try await store.alerts() == [firing])
            #expect(try await store.alertHistory(id: alert.id, limit: 10) == [try #require(fired)])
            let sent = try await store.deliveries(webhookID: "wh_a", status: nil, limit: 10)
            #expect(sent.map(\.type) == [.alertFiring] && sent.first?.createdAtMillis == t1)
            #expect(try await store.deliveries(webhookID: "wh_b", status: nil, limit: 10).isEmpty)
            let body = try jsonObject(try await store.column("SELECT body FROM webhook_messages").first ?? nil)
            #expect(body["type"] as? String == "alert.firing")
            let data = try #require(body["data"] as? [String: Any])
            #expect(data["name"] as? String == "receipts down" && data["state"] as? String == "firing" && data["value"] as? Double == 0.05)
            #expect(data["id"] as? String == alert.id && data["window"] as? String == "1h" && data["grace"] as? String == "5m")

            // Still firing: the value moves, nothing is recorded or sent.
            let t2 = t1 + 60_000
            let (still, none) = AlertReading(firing: true, value: 0.04).applied(to: firing, at: t2)
            #expect(none == nil)
            try await store.recordEvaluation(still, transition: nil, at: t2)
            let stored = try await store.alerts().first
            #expect(stored?.value == 0.04 && stored?.evaluatedAtMillis == t2 && stored?.sinceMillis == t1)
            #expect(try await store.alertHistory(id: alert.id, limit: 10)?.count == 1)
            #expect(try await store.integers("SELECT count(*) FROM webhook_deliveries") == [1])

            let t3 = t2 + 60_000
            let (resolved, back) = AlertReading(firing: false, value: 0.5).applied(to: still, at: t3)
            try await store.recordEvaluation(resolved, transition: back, at: t3)
            #expect(try await store.alertHistory(id: alert.id, limit: 10)?.map(\.state) == [.ok, .firing])
            #expect(try await store.alertHistory(id: alert.id, limit: 1)?.map(\.atMillis) == [t3])
            #expect(try await store.deliveries(webhookID: "wh_a", status: nil, limit: 10).map(\.type) == [.alertResolved, .alertFiring])
            #expect(try await store.deliveries(webhookID: "wh_b", status: nil, limit: 10).map(\.type) == [.alertResolved])

            // An alert deleted meanwhile records and sends nothing.
            #expect(try await store.deleteAlert(id: alert.id))
            let (again, refired) = AlertReading(firing: true, value: 0).applied(to: resolved, at: t3 + 60_000)
            try await store.recordEvaluation(again, transition: refired, at: t3 + 60_000)
            #expect(try await store.alerts().isEmpty)
            #expect(try await store.integers("SELECT count(*) FROM alert_history") == [0])
            #expect(try await store.integers("SELECT count(*) FROM webhook_deliveries") == [3])
        }
    }
}
