import Foundation
import PushTallyTestSupport
import Testing

/// Webhooks end to end: real `pushtally serve` processes on each store, delivering to
/// Tests/webhooks/receiver.py, which checks every signature with the PyPI standardwebhooks package.
@Suite(.serialized) struct WebhookLiveTests {
    /// Receipts and a registration arrive signed as Standard Webhooks expects, keyed device ids only.
    @Test(arguments: StoreKind.allCases)
    func messagesVerifyWithStandardWebhooks(kind: StoreKind) async throws {
        try await LiveWebhook.run(kind, name: "whverify", events: ["receipt.displayed", "push.registered"]) { live in
            let registered = try await live.api.call("PUT", "/v1/pushes/p1", json: #"{"campaign":"spring","sent":3}"#)
            #expect((200..<300).contains(registered.status), "\(registered.json)")
            let receipts = (1...3).map { (push: "p1", receipt: "r\($0)", device: "raw-device-\($0)") }
            #expect(try await live.api.postReceipts(receipts) == 200)
            let got = try await live.receiver.wait(seconds: 20) { messages in
                Set(messages.flatMap(\.receiptIDs)).isSuperset(of: ["r1", "r2", "r3"])
                    && messages.contains { $0.type == "push.registered" }
            }
            #expect(Set(got.flatMap(\.receiptIDs)) == ["r1", "r2", "r3"], "\(got.map(\.bodyText))")
            for message in got where message.type == "receipt.displayed" {
                for event in message.events {
                    #expect(event["push_id"] as? String == "p1" && event["campaign"] as? String == "spring", "\(event)")
                    let device = event["device_id"] as? String ?? ""
                    #expect(!device.isEmpty && !device.contains("raw-device"), "a keyed device id, never the raw one: \(device)")
                }
            }
            let registration = try #require(got.first { $0.type == "push.registered" })
            let data = registration.body["data"] as? [String: Any] ?? [:]
            #expect(data["push_id"] as? String == "p1" && data["sent"] as? Int == 3, "\(registration.bodyText)")
            for message in got {
                let sentAt = Double(message.timestamp) ?? 0
                #expect(abs(sentAt - Date().timeIntervalSince1970) < 300, "webhook-timestamp \(message.timestamp)")
                #expect(!message.id.isEmpty)
            }
            #expect(got.count == Set(got.map(\.id)).count, "a receiver that answers 200 gets each message once")
        }
    }

    /// kill -9 under a stream of receipts, restart on the same store: every acknowledged receipt arrives
    /// (at least once; a retried message keeps its id and its events).
    @Test(arguments: StoreKind.allCases)
    func killMinus9MidStreamLosesNoAcknowledgedReceipt(kind: StoreKind) async throws {
        // A slow receiver (2 s before it reads a request): whatever was sent in the last 2 s before the kill is
        // not yet logged, so the restarted collector always has deliveries to finish.
        try await LiveWebhook.run(kind, name: "whkill", receiverOptions: ["--delay", "2"]) { live in
            let server = live.store.server
            let counter = AckCounter()
            let load = Task { await loadUntilDown(server, pushID: "k", workers: 4, perWorker: 5000, counter: counter) }
            #expect(try await eventually(seconds: 60) { counter.value >= 300 }, "the stream got going")
            _ = try await server.stop(signal: SIGKILL)
            let acknowledged = Set(await load.value)
            #expect(acknowledged.count >= 300)
            // Receipts wait up to 0.5 s to be packed: the last ones acknowledged cannot have left before the kill,
            // so the restarted collector has work to finish.
            let beforeRestart = Set(live.receiver.received().flatMap(\.receiptIDs))
            #expect(!beforeRestart.isSuperset(of: acknowledged), "the kill came mid-stream")
            let restarted = try await live.store.startCollector("restarted")
            defer { restarted.removeFiles() }
            let got = try await live.receiver.wait(seconds: 60) { Set($0.flatMap(\.receiptIDs)).isSuperset(of: acknowledged) }
            let missing = acknowledged.subtracting(got.flatMap(\.receiptIDs))
            #expect(missing.isEmpty, "\(missing.count) of \(acknowledged.count) acknowledged receipts never arrived: \(missing.sorted().prefix(10))")
            var eventsByID: [String: [String]] = [:]
            for message in got {
                if let earlier = eventsByID[message.id] {
                    #expect(earlier == message.receiptIDs, "message \(message.id) was re-sent with other events")
                }
                eventsByID[message.id] = message.receiptIDs
            }
        }
    }

    /// kill -9 while a delivery is in flight (the receiver holds the request): the restarted collector sends
    /// the message again, under its id, once the dead collector's lease is over: within 30 s of the crash.
    @Test(arguments: StoreKind.allCases)
    func inFlightMessagesAreRetriedWithin30sOfACrash(kind: StoreKind) async throws {
        try await LiveWebhook.run(kind, name: "whlease", receiverOptions: ["--hang", "40"]) { live in
            let server = live.store.server
            #expect(try await live.api.postReceipts([("p1", "lease-1", "d1")]) == 200)
            let first = try await live.receiver.wait(seconds: 10) { !$0.isEmpty }
            let id = try #require(first.first?.id)
            _ = try await server.stop(signal: SIGKILL)
            let crashed = Date()
            let restarted = try await live.store.startCollector("restarted")
            defer { restarted.removeFiles() }
            let again = try await live.receiver.wait(seconds: 40) { $0.filter { $0.id == id }.count >= 2 }
            #expect(again.filter { $0.id == id }.count >= 2, "the message in flight at the crash was never retried")
            #expect(Date().timeIntervalSince(crashed) < 31, "retried \(Date().timeIntervalSince(crashed)) s after the crash")
            #expect(again.last { $0.id == id }?.receiptIDs == ["lease-1"])
        }
    }

    /// An endpoint that holds its first request for 40 s delays nobody else: a second endpoint's message for
    /// the same receipt arrives within seconds, while the first is still in flight.
    @Test(arguments: StoreKind.allCases)
    func aHangingEndpointDelaysNoOtherEndpoint(kind: StoreKind) async throws {
        try await LiveWebhook.run(kind, name: "whhang", receiverOptions: ["--hang", "40"]) { live in
            let prompt = try await WebhookReceiver(options: [])
            defer { prompt.stop() }
            let created = try await live.api.call(
                "POST", "/v1/webhooks", json: #"{"url":"\#(prompt.url)","events":["receipt.displayed"]}"#)
            try prompt.setSecret(try #require(created.json["secret"] as? String))
            #expect(try await live.api.postReceipts([("p1", "hang-1", "d1")]) == 200)
            #expect(try await live.receiver.wait(seconds: 10) { !$0.isEmpty }.count == 1, "the hanging endpoint got its request")
            #expect(try await live.api.postReceipts([("p1", "hang-2", "d2")]) == 200)
            let got = try await prompt.wait(seconds: 5) { Set($0.flatMap(\.receiptIDs)).isSuperset(of: ["hang-1", "hang-2"]) }
            #expect(Set(got.flatMap(\.receiptIDs)).isSuperset(of: ["hang-1", "hang-2"]), "the prompt endpoint waited for the hanging one")
            LiveWebhook.expectAllVerified(prompt)
        }
    }

    /// Three 500s, then 200: four attempts at one message under one id, recorded as delivered.
    @Test(arguments: StoreKind.allCases)
    func retriesKeepTheMessageID(kind: StoreKind) async throws {
        try await LiveWebhook.run(kind, name: "whretry", receiverOptions: ["--fail", "3"]) { live in
            #expect(try await live.api.postReceipts([("p1", "r1", "d1")]) == 200)
            let got = try await live.receiver.wait(seconds: 30) { $0.count >= 4 }
            #expect(got.count == 4, "\(got.map(\.id))")
            #expect(Set(got.map(\.id)).count == 1, "one webhook-id across retries: \(got.map(\.id))")
            #expect(got.allSatisfy { $0.receiptIDs == ["r1"] })
            var delivery: [String: Any] = [:]
            let delivered = try await eventually(seconds: 10) {
                delivery = try await live.api.deliveries(live.webhookID).first ?? [:]
                return delivery["status"] as? String == "delivered"
            }
            #expect(delivered, "\(delivery)")
            #expect(delivery["attempts"] as? Int == 4 && delivery["message_id"] as? String == got.first?.id, "\(delivery)")
            #expect(delivery["last_status"] as? Int == 200, "\(delivery)")
            #expect(live.receiver.received().count == 4, "nothing after the success")
        }
    }

    /// A 410 Gone disables the endpoint, which then gets nothing more.
    @Test(arguments: StoreKind.allCases)
    func goneDisablesTheEndpoint(kind: StoreKind) async throws {
        try await LiveWebhook.run(kind, name: "whgone", receiverOptions: ["--status", "410"]) { live in
            #expect(try await live.api.postReceipts([("p1", "r1", "d1")]) == 200)
            let first = try await live.receiver.wait(seconds: 20) { !$0.isEmpty }
            #expect(first.count == 1)
            var status = ""
            let disabled = try await eventually(seconds: 10) {
                status = try await live.api.webhook(live.webhookID)?["status"] as? String ?? ""
                return status == "disabled"
            }
            #expect(disabled, "status \(status)")
            #expect(try await live.api.postReceipts([("p1", "r2", "d2")]) == 200)
            // A negative: wait several pack (0.5 s) and poll (0.2 s) rounds and a retry base (1 s) for what must not come.
            try await Task.sleep(for: .seconds(3))
            #expect(live.receiver.received().count == 1, "\(live.receiver.received().map(\.receiptIDs))")
        }
    }

    /// Without --allow-private-webhooks, loopback targets are refused (by literal and by name), other
    /// schemes are bad URLs, and a public literal is accepted.
    @Test(arguments: StoreKind.allCases)
    func privateAddressesAreRefusedByDefault(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "whssrf")
        let api = LiveAPI(store.server, token: store.server.adminToken)
        let port = try freeLoopbackPort()
        func create(_ url: String) async throws -> (status: Int, json: [String: Any]) {
            try await api.call("POST", "/v1/webhooks", json: #"{"url":"\#(url)","events":["receipt.displayed"]}"#)
        }
        do {
            for url in ["http://127.0.0.1:\(port)/hook", "http://localhost:\(port)/hook"] {
                let refused = try await create(url)
                #expect(refused.status == 400 && refused.json["error"] as? String == "private_address", "\(url): \(refused.json)")
                #expect(refused.json["field"] as? String == "url")
            }
            let ftp = try await create("ftp://example.com/hook")
            #expect(ftp.status == 400 && ftp.json["error"] as? String == "bad_url" && ftp.json["field"] as? String == "url", "\(ftp.json)")
            // Raw CR, LF and spaces (JSON escapes put them in the string) and ports no socket has are refused, never
            // stored re-encoded or as port 80.
            for (url, message) in [
                (#"http://93.184.216.34/a\r\nX-Injected: 1"#, "url holds a carriage return (CR)"), (#"http://93.184.216.34/\nx"#, "url holds a line feed (LF)"),
                ("http://93.184.216.34/a b", "url holds a space"), ("http://93.184.216.34:99999999999999999999/hook", "url has the port 99999999999999999999"),
                ("http://93.184.216.34:0/hook", "url has the port 0"),
            ] {
                let refused = try await create(url)
                #expect(refused.status == 400 && refused.json["error"] as? String == "bad_url" && refused.json["field"] as? String == "url", "\(url): \(refused.json)")
                #expect((refused.json["message"] as? String)?.hasPrefix(message) == true, "\(url): \(refused.json)")
            }
            let accepted = try await create("http://93.184.216.34/hook")
            #expect(accepted.status == 201, "\(accepted.json)")
            let listed = try await api.call("GET", "/v1/webhooks").json["webhooks"] as? [[String: Any]] ?? []
            #expect(listed.map { $0["url"] as? String } == ["http://93.184.216.34/hook"])
        } catch {
            await store.cleanUp()
            throw error
        }
        await store.cleanUp()
    }

    /// Replay re-sends retained messages under their original ids and events.
    @Test(arguments: StoreKind.allCases)
    func replayResendsUnderTheSameIDs(kind: StoreKind) async throws {
        try await LiveWebhook.run(kind, name: "whreplay") { live in
            let since = Int(Date().timeIntervalSince1970) - 5
            #expect(try await live.api.postReceipts([("p1", "r1", "d1"), ("p1", "r2", "d2")]) == 200)
            let first = try await live.receiver.wait(seconds: 20) { Set($0.flatMap(\.receiptIDs)) == ["r1", "r2"] }
            #expect(Set(first.flatMap(\.receiptIDs)) == ["r1", "r2"])
            let originals = Dictionary(first.map { ($0.id, $0.receiptIDs) }, uniquingKeysWith: { a, _ in a })
            let replay = try await live.api.call("POST", "/v1/webhooks/\(live.webhookID)/replay", json: #"{"since":\#(since)}"#)
            #expect(replay.status == 202 && replay.json["replayed"] as? Int == originals.count, "\(replay.json)")
            let got = try await live.receiver.wait(seconds: 20) { $0.count >= 2 * originals.count }
            #expect(got.count == 2 * originals.count, "\(got.map(\.id))")
            for (id, receiptIDs) in originals {
                let copies = got.filter { $0.id == id }
                #expect(copies.count == 2 && copies.allSatisfy { $0.receiptIDs == receiptIDs }, "\(id): \(copies.map(\.receiptIDs))")
            }
        }
    }
}
