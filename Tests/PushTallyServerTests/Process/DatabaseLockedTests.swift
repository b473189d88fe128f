import Foundation
import PushTallyTestSupport
import Testing

/// Another process holding the SQLite database's write lock (an operator's `sqlite3` shell inside
/// `BEGIN EXCLUSIVE`): a receipt is answered 503 with a short Retry-After and a message that names the lock,
/// within the busy timeout, and is taken again as soon as the lock is released.
@Suite struct DatabaseLockedTests {
    @Test func aLockHeldByAnotherProcessIsA503ThatNamesIt() async throws {
        let server = try ServerProcess(deadlines: .production)
        defer { server.removeFiles() }
        try await server.start()
        let url = server.baseURL.appendingPathComponent("v1/receipts")
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        #expect(try await httpRequest(url, method: "POST", headers: form, body: Data("push_id=lock&receipt_id=before".utf8)).status == 204)

        // Holds the lock until its standard input closes; the marker file says it holds it.
        let marker = server.databasePath + ".locked"
        let holder = ChildProcess()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("BEGIN EXCLUSIVE")
            open(sys.argv[2], "w").close()
            sys.stdin.read()
            c.execute("ROLLBACK")
            """,
            server.databasePath, marker,
        ]
        let input = Pipe()
        holder.standardInput = input
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        try await holder.waitUntilReady("the lock holder") { FileManager.default.fileExists(atPath: marker) }

        let refused = try await httpRequest(url, method: "POST", headers: form, body: Data("push_id=lock&receipt_id=during".utf8))
        let error = try JSONSerialization.jsonObject(with: refused.body) as? [String: Any]
        #expect(refused.status == 503, "\(error ?? [:])")
        #expect(refused.headers["retry-after"] == "5")
        #expect(error?["error"] as? String == "unavailable")
        #expect((error?["message"] as? String)?.contains("locked by another connection or process") == true, "\(error ?? [:])")

        try input.fileHandleForWriting.close()
        await holder.waitUntilExit()
        let retried = try await httpRequest(url, method: "POST", headers: form, body: Data("push_id=lock&receipt_id=during".utf8))
        #expect(retried.status == 204)
        #expect(try await server.stop() == 0)
        #expect(try storedReceiptIDs(server.databasePath, pushID: "lock") == Set(["before", "during"]))
    }
}
