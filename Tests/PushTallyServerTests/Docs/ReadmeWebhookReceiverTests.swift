import Foundation
import PushTallyTestSupport
import Testing

/// The Python webhook receiver of docs/WEBHOOKS.md, run as written (on a free loopback port) behind a live server.
@Suite(.serialized) struct ReadmeWebhookReceiverTests {
    /// The one `python` block of docs/WEBHOOKS.md.
    static func receiverScript() throws -> String {
        let guide = try String(contentsOf: PackageRoot.file("docs/WEBHOOKS.md"), encoding: .utf8)
        let blocks = guide.components(separatedBy: "```python\n").dropFirst()
        try #require(blocks.count == 1)
        return try #require(blocks.first?.components(separatedBy: "\n```").first)
    }

    @Test func theDocumentedReceiverVerifiesAndReadsReceipts() async throws {
        let script = try Self.receiverScript()
        #expect(script.contains(#"HTTPServer(("0.0.0.0", 8000), Receiver)"#))
        let port = try freeLoopbackPort()
        let server = try ServerProcess(extraArguments: ["--allow-private-webhooks"])
        defer { server.removeFiles() }
        try await server.start()
        let created = try await runPushtally(
            ["webhooks", "create", "--url", "http://127.0.0.1:\(port)/pushtally", "--event", "receipt.displayed", "--event", "push.registered",
             "--server", server.baseURL.absoluteString, "--token", server.adminToken])
        let secret = try #require(created.stdout.trimmingCharacters(in: .newlines).split(separator: "\t").last.map(String.init))

        let receiver = ChildProcess()
        receiver.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        receiver.arguments = ["python3", "-u", "-c", script.replacingOccurrences(of: #"("0.0.0.0", 8000)"#, with: #"("127.0.0.1", \#(port))"#)]
        receiver.environment = ProcessInfo.processInfo.environment.merging(["PUSHTALLY_WEBHOOK_SECRET": secret]) { $1 }
        // A file, not a pipe: a pipe's end inherited by a process started meanwhile would hold back its EOF.
        let printedPath = server.directory.appendingPathComponent("receiver.out")
        _ = FileManager.default.createFile(atPath: printedPath.path, contents: nil)
        receiver.standardOutput = try FileHandle(forWritingTo: printedPath)
        receiver.standardError = FileHandle.nullDevice
        try receiver.run()
        // SIGKILL: the test process's threads may block SIGTERM, and a spawned child inherits that mask.
        defer { receiver.send(SIGKILL) }
        // Listening before anything is sent, so that the first attempt is the one that succeeds.
        try await receiver.waitUntilReady("the README's webhook receiver") {
            (try? await httpRequest(URL(string: "http://127.0.0.1:\(port)/")!)) != nil
        }

        let auth = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        _ = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/pushes/p1"), method: "PUT", headers: auth, body: Data(#"{"campaign":"新年促销","sent":2}"#.utf8))
        let receipt = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"{"push_id":"p1","device_id":"d1","app_version":"2.1"}"#.utf8))
        #expect(receipt.status == 204)
        // Every message is answered 204 only after it verified: the listing shows both delivered, with no retry.
        let listing = ["webhooks", "deliveries", String(created.stdout.prefix { $0 != "\t" }), "--status", "delivered",
                       "--database", server.databasePath]
        let deadline = Date().addingTimeInterval(30)
        var delivered: [Substring] = []
        while Date() < deadline, delivered.count < 2 {
            try await Task.sleep(for: .milliseconds(100))
            delivered = try await runPushtally(listing).stdout.split(separator: "\n")
        }
        #expect(delivered.count == 2)
        #expect(delivered.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false)[3] == "1" })
        receiver.send(SIGKILL)
        await receiver.waitUntilExit()
        let printed = try String(contentsOf: printedPath, encoding: .utf8)
        #expect(printed.contains("receipt.displayed p1 新年促销 2.1"), "\(printed)")
        #expect(try await server.stop() == 0)
    }
}
