import Foundation
import PushTallyTestSupport
import Testing

/// Alerts end to end on real `pushtally serve` processes (evaluated every second), their transitions
/// delivered to Tests/webhooks/receiver.py; and two collectors sharing one PostgreSQL database.
@Suite(.serialized) struct AlertLiveTests {
    static let alertEvents = ["alert.firing", "alert.resolved"]

    /// A push of 100 sent ten minutes ago with no receipts, inside a 1h window less 1m of grace.
    static func registerQuietPush(_ api: LiveAPI, id: String) async throws {
        let sentAt = Int(Date().timeIntervalSince1970) - 600
        let registered = try await api.call("PUT", "/v1/pushes/\(id)", json: #"{"campaign":"alerts","sent":100,"sent_at":\#(sentAt)}"#)
        #expect((200..<300).contains(registered.status), "\(registered.json)")
    }

    /// Creates a receipts_stopped alert (below 50 % displayed, at least 10 sent) and returns its id.
    static func createAlert(_ api: LiveAPI, name: String) async throws -> String {
        let created = try await api.call(
            "POST", "/v1/alerts",
            json: #"{"name":"\#(name)","kind":"receipts_stopped","window":"1h","grace":"1m","threshold":0.5,"min_sent":10}"#)
        #expect(created.status == 201, "\(created.json)")
        return try #require(created.json["id"] as? String)
    }

    static func firings(_ messages: [ReceivedWebhook]) -> [ReceivedWebhook] {
        messages.filter { $0.type == "alert.firing" }
    }

    /// Fires, stays firing (no second alert.firing) across a restart on the same store, resolves once
    /// receipts arrive; history holds both transitions.
    @Test(arguments: StoreKind.allCases)
    func alertFiresResolvesAndDoesNotRefireAfterRestart(kind: StoreKind) async throws {
        try await LiveWebhook.run(kind, name: "alert", events: Self.alertEvents) { live in
            try await Self.registerQuietPush(live.api, id: "quiet")
            let alertID = try await Self.createAlert(live.api, name: "quiet-pushes")
            let fired = try await live.receiver.wait(seconds: 20) { !Self.firings($0).isEmpty }
            let firing = try #require(Self.firings(fired).first, "no alert.firing arrived")
            let data = firing.body["data"] as? [String: Any] ?? [:]
            #expect(data["id"] as? String == alertID && data["name"] as? String == "quiet-pushes", "\(firing.bodyText)")
            #expect(data["state"] as? String == "firing" && data["value"] as? Double == 0, "\(firing.bodyText)")
            let alerts = try await live.api.call("GET", "/v1/alerts").json["alerts"] as? [[String: Any]] ?? []
            #expect(alerts.map { $0["state"] as? String } == ["firing"], "\(alerts)")
            let gauge = #"pushtally_alert_firing{alert="quiet-pushes"} 1"#
            #expect(try await eventually(seconds: 10) { try await live.api.metrics().contains(gauge) })

            #expect(try await live.store.server.stop() == 0)
            let restarted = try await live.store.startCollector("restarted")
            defer { restarted.removeFiles() }
            let api = LiveAPI(restarted, token: live.token)
            // The restarted collector's gauge comes from the stored state, read right after its own evaluations.
            #expect(try await eventually(seconds: 10) { try await api.metrics().contains(gauge) }, "the restarted collector evaluates")
            try await Task.sleep(for: .seconds(3))
            #expect(Self.firings(live.receiver.received()).count == 1, "no second alert.firing after a restart")

            let receipts = (0..<60).map { (push: "quiet", receipt: "q\($0)", device: "device-\($0)") }
            #expect(try await api.postReceipts(receipts) == 200)
            let resolved = try await live.receiver.wait(seconds: 20) { $0.contains { $0.type == "alert.resolved" } }
            let resolution = try #require(resolved.first { $0.type == "alert.resolved" }, "no alert.resolved arrived")
            let resolvedData = resolution.body["data"] as? [String: Any] ?? [:]
            #expect(resolvedData["state"] as? String == "ok" && resolvedData["value"] as? Double == 0.6, "\(resolution.bodyText)")
            #expect(Self.firings(resolved).count == 1)
            let history = try await api.call("GET", "/v1/alerts/\(alertID)/history").json["history"] as? [[String: Any]] ?? []
            #expect(Set(history.map { $0["state"] as? String }) == ["firing", "ok"] && history.count == 2, "\(history)")
            #expect(try await eventually(seconds: 10) { try await api.metrics().contains(#"pushtally_alert_firing{alert="quiet-pushes"} 0"#) })
        }
    }

    /// Two collectors on one PostgreSQL database: receipts posted to both all arrive, no message is sent
    /// twice to a receiver that always answers 200, and only one of them evaluates an interval's alerts.
    @Test func twoCollectorsOnPostgresSendEachMessageOnce() async throws {
        try await LiveWebhook.run(.postgres, name: "whtwo", events: ["receipt.displayed"] + Self.alertEvents) { live in
            let second = try await live.store.startCollector("second")
            defer { second.removeFiles() }
            let apis = [live.api, LiveAPI(second, token: live.token)]
            try await Self.registerQuietPush(live.api, id: "quiet")
            _ = try await Self.createAlert(apis[1], name: "shared")
            var posted = Set<String>()
            for batch in 0..<20 {
                let receipts = (0..<10).map { (push: "busy", receipt: "b\(batch)-\($0)", device: "device-\(batch)-\($0)") }
                #expect(try await apis[batch % 2].postReceipts(receipts) == 200)
                posted.formUnion(receipts.map(\.receipt))
            }
            let got = try await live.receiver.wait(seconds: 30) { messages in
                Set(messages.flatMap(\.receiptIDs)).isSuperset(of: posted) && !Self.firings(messages).isEmpty
            }
            #expect(Set(got.flatMap(\.receiptIDs)) == posted)
            #expect(!Self.firings(got).isEmpty, "the alert fired")
            // Several more intervals, for a second evaluation (or a second send) to show up if it were going to.
            try await Task.sleep(for: .seconds(4))
            let all = live.receiver.received()
            #expect(all.count == Set(all.map(\.id)).count, "a webhook-id arrived twice: \(all.map(\.id).sorted())")
            #expect(all.flatMap(\.receiptIDs).count == posted.count, "each receipt once")
            #expect(Self.firings(all).count == 1, "one alert.firing from two collectors")
        }
    }
}
