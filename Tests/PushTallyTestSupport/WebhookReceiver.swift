import Foundation

/// One request the receiver logged: its Standard Webhooks verification (done by the PyPI package, not by
/// PushTally's code), headers and body.
public struct ReceivedWebhook: Sendable {
    public let verified: Bool
    public let id: String
    public let timestamp: String
    public let type: String
    public let contentLength: Bool
    public let chunked: Bool
    /// The body's JSON text.
    public let bodyText: String

    /// The parsed body (`{"type","timestamp","data"}`).
    public var body: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(bodyText.utf8))) as? [String: Any] ?? [:]
    }

    /// `data.events` of a batched message (receipts and taps); empty for other types.
    public var events: [[String: Any]] {
        (body["data"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
    }

    /// The receipt ids the message carries.
    public var receiptIDs: [String] { events.compactMap { $0["receipt_id"] as? String } }
}

/// Tests/webhooks/receiver.py running on a free loopback port: verifies each message with the secret in its
/// secret file and logs one JSON line per request.
public final class WebhookReceiver: @unchecked Sendable {
    public let process = ChildProcess()
    public let directory: URL
    public private(set) var port = 0

    var secretPath: String { directory.appendingPathComponent("secret").path }
    var logPath: String { directory.appendingPathComponent("log.ndjson").path }
    var errorPath: String { directory.appendingPathComponent("stderr").path }

    /// Where PushTally should send: the receiver's URL.
    public var url: String { "http://127.0.0.1:\(port)/hook" }

    /// Starts it and waits for its port while it starts up (``ChildProcess/waitUntilReady(_:quietLimit:describe:_:)``). `options`: `--fail N` or `--status CODE`.
    public init(options: [String] = []) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-receiver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = PackageRoot.file("Tests/webhooks/receiver.py").path
        let portPath = directory.appendingPathComponent("port").path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, secretPath, logPath, portPath] + options
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        do {
            try await process.waitUntilReady(
                "the webhook receiver (is `pip install standardwebhooks` done?)", describe: { [errorPath] in Self.text(errorPath) }
            ) {
                guard let text = try? String(contentsOfFile: portPath, encoding: .utf8), let port = Int(text) else { return false }
                self.port = port
                return true
            }
        } catch {
            stop()
            throw error
        }
    }

    private static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// What the receiver wrote to stderr (verification failures, a missing package).
    public var errors: String { Self.text(errorPath) }

    /// Gives the receiver the endpoint's secret, which `POST /v1/webhooks` shows once.
    public func setSecret(_ secret: String) throws {
        try secret.write(toFile: secretPath, atomically: true, encoding: .utf8)
    }

    /// Every request logged so far, in arrival order.
    public func received() -> [ReceivedWebhook] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let record = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return nil }
            let body = record["body"].flatMap { try? JSONSerialization.data(withJSONObject: $0) } ?? Data("null".utf8)
            return ReceivedWebhook(
                verified: record["verified"] as? Bool ?? false, id: record["id"] as? String ?? "",
                timestamp: record["timestamp"] as? String ?? "", type: record["type"] as? String ?? "",
                contentLength: record["content_length"] as? Bool ?? false, chunked: record["chunked"] as? Bool ?? true,
                bodyText: String(decoding: body, as: UTF8.self))
        }
    }

    /// Polls (every 100 ms, at most `seconds`) until `done` holds for what arrived; returns the last reading
    /// either way, so the caller's expectations report what did arrive.
    @discardableResult
    public func wait(seconds: Double, until done: ([ReceivedWebhook]) -> Bool) async throws -> [ReceivedWebhook] {
        let deadline = Date().addingTimeInterval(seconds)
        var seen = received()
        while !done(seen), Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            seen = received()
        }
        return seen
    }

    /// Stops the receiver and removes its files.
    public func stop() {
        // Its reaper thread collects it.
        process.send(SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }
}
