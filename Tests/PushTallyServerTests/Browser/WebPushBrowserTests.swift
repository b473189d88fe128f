import Foundation
import PushTallyTestSupport
import Testing

/// clients/web/pushtally-sw.js in Debian's Chromium, across origins, against a real collector: a site on one
/// loopback origin registers a service worker that uses it, the collector lists that origin with
/// `--cors-origin`, pushes arrive through the DevTools protocol, and part of it runs offline
/// (Tests/browser/web_push.py drives it). Both ingest paths, both stores.
@Suite(.serialized) struct WebPushBrowserTests {
    static let script = PackageRoot.file("Tests/browser/web_push.py").path

    struct Setup: Sendable, CustomStringConvertible {
        let store: StoreKind
        let fastPath: Bool
        /// Also fill the outbox past its bounds: the client's own logic, so once is enough.
        var bounds = false
        var description: String { "\(store), \(fastPath ? "fast path" : "router")\(bounds ? ", bounds" : "")" }
    }

    static let setups = [
        Setup(store: .sqlite, fastPath: true, bounds: true), Setup(store: .sqlite, fastPath: false), Setup(store: .postgres, fastPath: true),
    ]

    /// Every display and tap is stored exactly once with `platform=web`, the offline ones after the worker is back
    /// online; a page on an origin that is not listed gets a `403` and its receipt never lands.
    @Test(arguments: setups)
    func displaysAndTapsFromAServiceWorkerAreStoredOnceAcrossOrigins(_ setup: Setup) async throws {
        let sitePort = try freeLoopbackPort()
        let collector = try await StoreServer.start(
            setup.store, name: "web-push",
            extraArguments: ["--cors-origin", "http://127.0.0.1:\(sitePort)"] + (setup.fastPath ? [] : ["--no-fast-path"]))
        defer { collector.server.removeFiles() }
        let run = try await runProcess(
            "/usr/bin/env", ["python3", Self.script, String(sitePort), collector.server.baseURL.absoluteString] + (setup.bounds ? ["--bounds"] : []),
            includingErrors: true)
        #expect(run.status == 0, "\(run.output)")
        let line = run.output.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? "{}"
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(run.output)")

        // Notifications as the payloads describe them, in PushTally's shape and FCM's; one without a push_id too.
        let notifications = try #require(seen["notifications"] as? [[String: Any]], "\(seen)")
        let shown = notifications.map { "\($0["push_id"] as? String ?? "-"): \($0["title"] as? String ?? "") / \($0["body"] as? String ?? "")" }
        #expect(Set(shown) == ["3001: Spring sale / Up to 40% off", "3002: New article / Read it now", "-: Untracked / no push_id"], "\(shown)")
        #expect(notifications.first { $0["push_id"] as? String == "3001" }?["actions"] as? [String] == ["later"])

        // The outbox: empty online; a receipt the collector refused dropped and counted; four events (two
        // displays, a tap and a dismissal) queued while offline, none left once Background Sync ran online.
        func stats(_ name: String) -> [String: Int] { seen[name] as? [String: Int] ?? [:] }
        #expect(stats("stats_online") == ["queued": 0, "dropped": 0, "rejected": 0], "\(seen)")
        #expect(stats("stats_refused") == ["queued": 0, "dropped": 0, "rejected": 1], "\(seen)")
        #expect(stats("stats_offline") == ["queued": 4, "dropped": 0, "rejected": 1], "\(seen)")
        #expect(stats("stats_after_sync") == ["queued": 0, "dropped": 0, "rejected": 1], "\(seen)")
        #expect(stats("stats_final") == ["queued": 0, "dropped": 0, "rejected": 1], "\(seen)")

        // The site's page posted a session and a conversion across origins; a page on another origin could not
        // post a receipt, as a form (no preflight: a 403 without CORS headers) or as JSON (its preflight refused).
        #expect(seen["page_posts"] as? [Int] == [204, 204], "\(seen)")
        #expect(seen["foreign_status"] as? Int == 403, "\(seen)")
        #expect((seen["foreign_headers"] as? [String])?.contains { $0.hasPrefix("access-control-") } == false, "\(seen)")
        #expect(seen["foreign_form_fetch"] as? String == "opaque", "\(seen)")
        #expect(seen["foreign_json_fetch"] as? String == "failed", "\(seen)")

        let events = try await Self.exportedEvents(collector)
        if setup.bounds {
            // A display queued 8 days ago is dropped; of 1,002 more queued offline the oldest two are dropped,
            // and the other 1,000 sent once back online.
            let aged = seen["stats_aged"] as? [String: Any]
            #expect(aged?["recorded"] as? Int == 1 && aged?["stats"] as? [String: Int] == ["queued": 0, "dropped": 1, "rejected": 1], "\(seen)")
            let full = seen["stats_full"] as? [String: Any]
            #expect(full?["recorded"] as? Int == 1002 && full?["stats"] as? [String: Int] == ["queued": 1000, "dropped": 3, "rejected": 1], "\(seen)")
            #expect((seen["stats_drained"] as? [String: Any])?["stats"] as? [String: Int] == ["queued": 0, "dropped": 3, "rejected": 1], "\(seen)")
            let bounded = events.compactMap { $0["push_id"] as? String }.filter { $0.hasPrefix("4") }.compactMap(Int.init)
            #expect(bounded.count == 1000 && bounded.min() == 400_002 && bounded.max() == 401_001, "\(bounded.count) \(bounded.min() ?? 0)")
        }
        let webEvents = events.filter {
            ($0["kind"] as? String == "display" || $0["kind"] as? String == "action") && ($0["push_id"] as? String)?.hasPrefix("3") == true
        }
        let stored = webEvents.map { event in
            "\(event["kind"] as? String ?? "") \(event["push_id"] as? String ?? "")" + ((event["action"] as? String).map { " \($0)" } ?? "")
        }
        #expect(stored.sorted() == [
            "action 3001 later", "action 3002 open", "action 3003 open", "action 3004 dismiss", "action 3005 dismiss",
            "display 3001", "display 3002", "display 3003", "display 3004", "display 3005",
        ], "\(stored)")
        for event in webEvents {
            #expect(event["platform"] as? String == "web", "\(event)")
            #expect(event["app_version"] as? String == "web-test-1", "\(event)")
            #expect(event["duplicate"] as? Bool == false, "\(event)")
            #expect((event["receipt_id"] as? String)?.count == 36, "a fresh UUID per event: \(event)")
        }
        // One install id for all of them.
        #expect(Set(webEvents.compactMap { $0["device_id"] as? String }).count == 1, "\(webEvents)")
        #expect(Set(webEvents.compactMap { $0["receipt_id"] as? String }).count == 10)
        #expect(events.map { $0["kind"] as? String ?? "" }.filter { $0 == "session" || $0 == "conversion" }.sorted() == ["conversion", "session"])

        // The worker hands out the install id its events carry: a backend that posts a delivery under it finds
        // the device's displays and its tap.
        let installID = seen["device_id"] as? [String: String]
        let deviceID = try #require(installID?["first"], "\(seen)")
        #expect(installID?["second"] == deviceID && deviceID.count == 36, "\(seen)")
        let state = try await Self.stateAfterDelivery(deviceID, pushID: "3001", platform: "web", collector: collector)
        #expect(state["state"] as? String == "engaged" && state["last_display_at"] != nil, "\(state)")
        #expect(try await collector.server.stop() == 0)
        await collector.cleanUp()
    }

    /// Registers `pushID`, posts one accepted delivery of it to `deviceID` and answers the device's line of
    /// `POST /v1/devices/states`.
    static func stateAfterDelivery(_ deviceID: String, pushID: String, platform: String, collector: StoreServer) async throws -> [String: Any] {
        let base = collector.server.baseURL
        let auth = ["Authorization": "Bearer \(collector.server.adminToken)", "Content-Type": "application/json"]
        let registered = try await httpRequest(
            base.appendingPathComponent("v1/pushes/\(pushID)"), method: "PUT", headers: auth, body: Data(#"{"campaign":"web"}"#.utf8))
        #expect(registered.status < 300)
        let line = try JSONSerialization.data(withJSONObject: [["device_id": deviceID, "platform": platform, "outcome": "accepted"]])
        let posted = try await httpRequest(base.appendingPathComponent("v1/pushes/\(pushID)/deliveries"), method: "POST", headers: auth, body: line)
        #expect(posted.status == 200, "\(String(decoding: posted.body, as: UTF8.self))")
        let asked = try await httpRequest(
            base.appendingPathComponent("v1/devices/states"), method: "POST", headers: auth, body: try JSONSerialization.data(withJSONObject: [deviceID]))
        let answer = try JSONSerialization.jsonObject(with: asked.body) as? [String: Any]
        return try #require((answer?["devices"] as? [[String: Any]])?.first, "\(String(decoding: asked.body, as: UTF8.self))")
    }

    /// Every raw event in the collector's store, through `pushtally export`.
    static func exportedEvents(_ collector: StoreServer) async throws -> [[String: Any]] {
        let path = collector.server.directory.appendingPathComponent("events.ndjson.gz").path
        let exported = try await runPushtally(["export", "--output", path] + collector.arguments)
        #expect(exported.status == 0, "\(exported.stderr)")
        let text = try await runProcess("/usr/bin/env", ["gzip", "-dc", path]).output
        // The first line names the format.
        return text.split(separator: "\n").dropFirst().compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
