import Foundation
import PushTallyTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real `pushtally serve` process on loopback, a real SQLite file, real HTTP clients.
@Suite(.serialized) struct LiveServerTests {
    @Test func acceptsTheExtensionsExactRequestBytes() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let fixture = try Data(contentsOf: try #require(Bundle.module.url(forResource: "Fixtures/extension-receipt", withExtension: "http")))
        let answer = try await rawExchange(port: server.port, Array(fixture))
        #expect(answer.hasPrefix("HTTP/1.1 204"), "\(answer)")
        let report = try await runPushtally(["report", "campaigns", "--format", "json", "--database", server.databasePath])
        #expect(report.status == 0)
        #expect(report.stdout.contains("\"displayed\":1"))
        #expect(try await server.stop() == 0)
    }

    @Test func urlSessionFormPostLikeAnExtension() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let response = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "User-Agent": "Wendercast/1 CFNetwork/1410.0.3 Darwin/22.6.0"],
            body: Data("push_id=2018001&device_id=install-1&receipt_id=\(UUID().uuidString)".utf8))
        #expect(response.status == 204)
        #expect(try await server.stop() == 0)
    }

    @Test func firstStartPrintsAnAdminTokenThatWorks() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        #expect(server.adminToken.hasPrefix("pt_"))
        let ok = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/reports/campaigns"), headers: ["Authorization": "Bearer \(server.adminToken)"])
        #expect(ok.status == 200)
        #expect(try await server.stop() == 0)
        // A second start on the same database creates no new token.
        let again = try ServerProcess(directory: server.directory)
        try await again.start()
        #expect(again.adminToken.isEmpty)
        #expect(try await again.stop() == 0)
    }

    /// SIGTERM mid-load: the process exits 0 and every receipt that got a 204 is in the database.
    @Test func sigtermCommitsEverythingAcknowledged() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let url = server.baseURL.appendingPathComponent("v1/receipts")
        let acknowledged = await withTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var acked: [String] = []
                    for i in 0..<400 {
                        let id = "w\(worker)-\(i)"
                        guard let response = try? await httpRequest(
                            url, method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                            body: Data("push_id=load&receipt_id=\(id)".utf8))
                        else { break }
                        if response.status == 204 { acked.append(id) } else { break }
                    }
                    return acked
                }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(300))
                kill(server.process.processIdentifier, SIGTERM)
                return []
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(try await server.stop() == 0)
        #expect(!acknowledged.isEmpty)
        let report = try await runPushtally(["report", "campaigns", "--format", "json", "--database", server.databasePath])
        let object = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
        let displayed = ((object?["campaigns"] as? [[String: Any]])?.first?["displayed"] as? Int) ?? 0
        #expect(displayed >= acknowledged.count, "acknowledged \(acknowledged.count), stored \(displayed)")
    }

    @Test func tokensAndDeviceIDsNeverReachTheLog() async throws {
        let server = try ServerProcess(extraArguments: ["--require-ingest-key", "--log-level", "trace"])
        defer { server.removeFiles() }
        try await server.start()
        let secret = "pt_0123456789ab_" + String(repeating: "f", count: 64)
        let device = "install-4b1d-never-logged"
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        let url = server.baseURL.appendingPathComponent("v1/receipts").appending(queryItems: [.init(name: "key", value: secret)])
        let rejected = try await httpRequest(url, method: "POST", headers: form, body: Data("push_id=1&device_id=\(device)".utf8))
        #expect(rejected.status == 401)
        // Accepted, and refused for a bad field: neither logs the device id it carried.
        let ingestToken = try await runPushtally(["keys", "create", "--role", "ingest", "--database", server.databasePath])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let receipts = server.baseURL.appendingPathComponent("v1/receipts")
        let bearer = form.merging(["Authorization": "Bearer \(ingestToken)"]) { a, _ in a }
        #expect(try await httpRequest(receipts, method: "POST", headers: bearer, body: Data("push_id=1&device_id=\(device)".utf8)).status == 204)
        #expect(try await httpRequest(receipts, method: "POST", headers: bearer, body: Data("push_id=1&device_id=\(device)&ts=never".utf8)).status == 400)
        // A token typed into a path no route has.
        #expect(try await httpRequest(server.baseURL.appendingPathComponent("v1/receipts/\(secret)")).status == 404)
        let viaHeader = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/reports/campaigns"), headers: ["Authorization": "Bearer \(server.adminToken)"])
        #expect(viaHeader.status == 200)
        #expect(try await server.stop() == 0)
        #expect(server.log.contains("listening"))
        #expect(!server.log.contains(secret))
        #expect(!server.log.contains(server.adminToken))
        #expect(!server.log.contains(ingestToken))
        #expect(!server.log.contains(device))
        #expect(server.log.contains("error=bad_timestamp"))
    }
}

/// Idle and slow clients are cut off, and many of them do not keep others from being served.
@Suite(.serialized) struct SlowClientTests {
    @Test func idleAndSlowlorisConnectionsAreClosed() async throws {
        let server = try ServerProcess(extraArguments: ["--idle-timeout", "1"])
        defer { server.removeFiles() }
        try await server.start()
        let idle = try RawConnection(port: server.port)
        let slow = try RawConnection(port: server.port)
        slow.write("POST /v1/receipts HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n")
        // The receive timeout (30 s) is only a guard against a hang; the server closes after about 1 s.
        #expect(await idle.waitForClose())
        #expect(await slow.waitForClose())
        let half = try RawConnection(port: server.port)
        half.write("POST /v1/receipts HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\npush_id=1")
        #expect(await half.waitForClose())
        #expect(try await server.stop() == 0)
    }

    /// A client that sends its body too slowly, or stops, is told why (`408`) before the close, and one that
    /// trickles steadily above the minimum rate is cut at the whole-request limit. The client (Python, reading
    /// between its writes so the answer is read before the close) prints the status line it got.
    static let trickler = #"""
        import socket, sys, time
        port, every, pieces = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"POST /v1/receipts HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\npush_id=slow&x=")
        print("sending", flush=True)
        s.setblocking(False)
        got, sent = b"", 0
        while b"\r\n\r\n" not in got:
            try:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
                continue
            except BlockingIOError:
                pass
            except ConnectionResetError:
                break
            if sent < pieces:
                try:
                    s.send(b"y" * 50)
                    sent += 1
                except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                    pass
            time.sleep(every)
        print(got.split(b"\r\n")[0].decode() or "closed without an answer", b"request_timeout" in got)
        """#

    @Test func aBodyThatStopsOrTricklesPastTheLimitIsAnswered408() async throws {
        let server = try ServerProcess(extraArguments: ["--idle-timeout", "1", "--body-timeout", "3", "--min-body-rate", "10"])
        defer { server.removeFiles() }
        try await server.start()
        // Stops after its head and a few bytes: cut after the idle timeout.
        let stopped = try await runProcess("/usr/bin/env", ["python3", "-c", Self.trickler, String(server.port), "0.1", "0"], includingErrors: true)
        #expect(stopped.output.contains("HTTP/1.1 408 Request Timeout True"), "\(stopped.output)")
        // 500 bytes a second, fifty times the minimum, for as long as the body lasts (200 s): cut at 3 s.
        let trickled = try await runProcess("/usr/bin/env", ["python3", "-c", Self.trickler, String(server.port), "0.1", "4000"], includingErrors: true)
        #expect(trickled.output.contains("HTTP/1.1 408 Request Timeout True"), "\(trickled.output)")
        #expect(try await server.stop() == 0)
    }

    /// At `--max-connections` with no connection idle, the request that arrives slowest is closed so a new
    /// client is served, rather than every slot staying with clients that trickle just above the minimum rate.
    @Test func aFullTableClosesTheSlowestRequestForANewClient() async throws {
        let server = try ServerProcess(extraArguments: ["--max-connections", "2", "--min-body-rate", "1", "--body-timeout", "3600"])
        defer { server.removeFiles() }
        try await server.start()
        var trickling: [ChildProcess] = []
        defer { for process in trickling { process.send(SIGKILL) } }
        for index in 0..<2 {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // 100 bytes a second, for longer than any wait here.
            process.arguments = ["python3", "-c", Self.trickler, String(server.port), "0.5", "100000"]
            let printed = server.directory.appendingPathComponent("trickler-\(index)").path
            _ = FileManager.default.createFile(atPath: printed, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: printed)
            try process.run()
            trickling.append(process)
            // Its request is in progress, and holds a slot, before the next client comes.
            try await process.waitUntilReady("a trickling client") {
                (try? String(contentsOfFile: printed, encoding: .utf8))?.contains("sending") == true
            }
        }
        // Past the registry's grace for a request that just began.
        try await Task.sleep(for: .milliseconds(300))
        let response = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST",
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("push_id=newcomer&receipt_id=n1".utf8))
        #expect(response.status == 204)
        #expect(try await server.stop() == 0)
        #expect(try storedReceiptIDs(server.databasePath, pushID: "newcomer") == ["n1"])
    }

    @Test func manyIdleConnectionsDoNotStopOthersBeingServed() async throws {
        let server = try ServerProcess(extraArguments: ["--idle-timeout", "2", "--max-connections", "50"])
        defer { server.removeFiles() }
        try await server.start()
        // More idle connections than the cap, from this process (the 20k-connection run is scripts' business).
        let idle = try (0..<200).map { _ in try RawConnection(port: server.port) }
        let response = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST",
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("push_id=busy".utf8))
        #expect(response.status == 204)
        #expect(idle.count == 200)
        #expect(try await server.stop() == 0)
    }
}
