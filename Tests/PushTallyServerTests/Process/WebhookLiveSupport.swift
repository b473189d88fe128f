import Foundation
import PushTallyTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A live collector's JSON API as the webhook and alert tests call it, with the admin token.
struct LiveAPI: Sendable {
    let base: URL
    let token: String

    init(_ server: ServerProcess, token: String) {
        base = server.baseURL
        self.token = token
    }

    /// Sends `json` (if any) to `path` (with its query) and parses the answer as a JSON object.
    func call(_ method: String, _ path: String, json: String? = nil) async throws -> (status: Int, json: [String: Any]) {
        var headers = ["Authorization": "Bearer \(token)"]
        if json != nil { headers["Content-Type"] = "application/json" }
        let response = try await httpRequest(
            URL(string: base.absoluteString + path)!, method: method, headers: headers, body: json.map { Data($0.utf8) })
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    /// Posts receipts (`[push_id, receipt_id, device_id]` each) in one request; returns the status.
    func postReceipts(_ receipts: [(push: String, receipt: String, device: String)]) async throws -> Int {
        let body = "[" + receipts.map { #"{"push_id":"\#($0.push)","receipt_id":"\#($0.receipt)","device_id":"\#($0.device)"}"# }
            .joined(separator: ",") + "]"
        return try await call("POST", "/v1/receipts", json: body).status
    }

    /// `GET /v1/webhooks`' entry for `id`.
    func webhook(_ id: String) async throws -> [String: Any]? {
        let list = try await call("GET", "/v1/webhooks").json["webhooks"] as? [[String: Any]] ?? []
        return list.first { $0["id"] as? String == id }
    }

    /// `GET /v1/webhooks/{id}/deliveries`.
    func deliveries(_ id: String) async throws -> [[String: Any]] {
        try await call("GET", "/v1/webhooks/\(id)/deliveries").json["deliveries"] as? [[String: Any]] ?? []
    }

    /// `/metrics` as text.
    func metrics() async throws -> String {
        String(decoding: try await httpRequest(base.appendingPathComponent("metrics")).body, as: UTF8.self)
    }
}

/// A collector with a webhook endpoint pointing at a running receiver.
struct LiveWebhook {
    /// Loopback receivers, alerts judged every second, retries a second apart: each test's waits stay short.
    static let serveFlags = ["--allow-private-webhooks", "--alert-interval", "1", "--webhook-retry-base", "1s"]

    let store: StoreServer
    let receiver: WebhookReceiver
    let token: String
    let webhookID: String
    var api: LiveAPI { LiveAPI(store.server, token: token) }

    /// Starts a receiver (with `receiverOptions`) and a collector on a fresh `kind` store, registers the receiver
    /// for `events`, runs `body`, then checks every request the receiver got: signature verified by the
    /// standardwebhooks package, a Content-Length, no chunking. Everything started is stopped afterwards.
    static func run(
        _ kind: StoreKind, name: String, receiverOptions: [String] = [], events: [String] = ["receipt.displayed"],
        _ body: (LiveWebhook) async throws -> Void
    ) async throws {
        let receiver = try await WebhookReceiver(options: receiverOptions)
        defer { receiver.stop() }
        let store = try await StoreServer.start(kind, name: name, extraArguments: serveFlags)
        do {
            let token = store.server.adminToken
            let eventList = events.map { "\"\($0)\"" }.joined(separator: ",")
            let created = try await LiveAPI(store.server, token: token).call(
                "POST", "/v1/webhooks", json: #"{"url":"\#(receiver.url)","events":[\#(eventList)]}"#)
            #expect(created.status == 201, "\(created.json)")
            let secret = try #require(created.json["secret"] as? String)
            #expect(secret.hasPrefix("whsec_"))
            try receiver.setSecret(secret)
            let live = LiveWebhook(
                store: store, receiver: receiver, token: token, webhookID: try #require(created.json["id"] as? String))
            try await body(live)
            expectAllVerified(receiver)
        } catch {
            await store.cleanUp()
            throw error
        }
        await store.cleanUp()
    }

    /// Every request verified with the PyPI package, sent with a Content-Length and not chunked.
    static func expectAllVerified(_ receiver: WebhookReceiver) {
        for message in receiver.received() {
            #expect(message.verified, "\(message.id) failed verification: \(receiver.errors)")
            #expect(message.contentLength && !message.chunked, "\(message.id) framing")
        }
    }
}

/// Polls `condition` every 100 ms for at most `seconds`; true once it holds.
func eventually(seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(100))
    }
    return try await condition()
}
