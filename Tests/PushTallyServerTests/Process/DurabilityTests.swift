import Foundation
import PushTallyTestSupport
import GRDB
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receipt ids stored in a database file, read with a connection of our own (the server may be dead).
func storedReceiptIDs(_ path: String, pushID: String) throws -> Set<String> {
    let queue = try DatabaseQueue(path: path)
    return try queue.read { db in
        Set(try String.fetchAll(db, sql: "SELECT receipt_id FROM events WHERE push_id = ?", arguments: [pushID]))
    }
}

/// Counts acknowledgements across client tasks.
final class AckCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// Posts receipts with unique ids from `workers` concurrent clients until the server stops answering;
/// returns the ids that were acknowledged with a 2xx.
func loadUntilDown(
    _ server: ServerProcess, pushID: String, workers: Int = 8, perWorker: Int = 5000, counter: AckCounter = AckCounter()
) async -> [String] {
    let url = server.baseURL.appendingPathComponent("v1/receipts")
    return await withTaskGroup(of: [String].self) { group in
        for worker in 0..<workers {
            group.addTask {
                var acknowledged: [String] = []
                for i in 0..<perWorker {
                    let id = "\(pushID)-w\(worker)-\(i)"
                    guard
                        let response = try? await httpRequest(
                            url, method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                            body: Data("push_id=\(pushID)&receipt_id=\(id)".utf8)),
                        (200..<300).contains(response.status)
                    else { break }
                    acknowledged.append(id)
                    counter.increment()
                }
                return acknowledged
            }
        }
        return await group.reduce(into: []) { $0 += $1 }
    }
}

@Suite(.serialized) struct DurabilityTests {
    /// SIGKILL mid-load, several rounds: every receipt that got a 2xx is in the database and the reports.
    @Test func killMinus9LosesNothingAcknowledged() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var totalAcknowledged = 0
        var totalLost = 0
        for round in 1...3 {
            let server = try ServerProcess(directory: directory)
            try await server.start()
            let pushID = "crash-\(round)"
            let counter = AckCounter()
            async let acknowledged = loadUntilDown(server, pushID: pushID, counter: counter)
            // Kill mid-load: once a few hundred receipts are acknowledged (bounded wait, not a timing check).
            for _ in 0..<600 where counter.value < 300 * round { try await Task.sleep(for: .milliseconds(50)) }
            kill(server.process.processIdentifier, SIGKILL)
            let acked = await acknowledged
            await server.process.waitUntilExit()
            #expect(server.process.terminationReason == .uncaughtSignal)
            let found = try storedReceiptIDs(server.databasePath, pushID: pushID)
            let lost = Set(acked).subtracting(found)
            print("crash round \(round): acknowledged \(acked.count), found \(found.count), lost \(lost.count)")
            #expect(!acked.isEmpty)
            #expect(lost.isEmpty, "round \(round) lost \(lost.sorted().prefix(5))")
            totalAcknowledged += acked.count
            totalLost += lost.count
            // A server restarted on the file reports them too, over HTTP.
            let token = try await runPushtally(["keys", "create", "--role", "read", "--database", server.databasePath])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let restarted = try ServerProcess(directory: directory)
            try await restarted.start()
            let report = try await httpRequest(
                restarted.baseURL.appendingPathComponent("v1/reports/pushes/\(pushID)"), headers: ["Authorization": "Bearer \(token)"])
            #expect(report.status == 200)
            let rows = (try JSONSerialization.jsonObject(with: report.body) as? [String: Any])?["pushes"] as? [[String: Any]]
            #expect((rows?.first?["displayed"] as? Int ?? 0) >= acked.count)
            #expect(try await restarted.stop() == 0)
        }
        print("crash test: acknowledged \(totalAcknowledged), lost \(totalLost) over 3 SIGKILL rounds")
    }
}

@discardableResult
func shell(_ command: String) async -> Int32 {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try? process.run()
    await process.waitUntilExit()
    return process.terminationStatus
}

@Suite(.serialized) struct DiskFullTests {
    /// A real full filesystem (a small tmpfs): ingest answers 503 with Retry-After, loses nothing it
    /// acknowledged, and recovers by itself once space returns. Mounting needs root: elsewhere the test is
    /// reported as skipped, with the reason, never as passed.
    @Test(.enabled(if: geteuid() == 0, "needs root to mount a small tmpfs (CI and the project's machines run as root)"))
    func diskFullAnswers503AndRecovers() async throws {
        try await Self.onSmallVolume(megabytes: 6) { directory in try await fillTheDiskAndRecover(directory) }
    }

    /// Runs `body` with a tmpfs of `megabytes` mounted on a folder of its own, unmounted and removed whichever
    /// way `body` ends (a defer cannot await the command). As root, a mount that fails is a failed test, not a skip.
    static func onSmallVolume(megabytes: Int, _ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-volume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await #require(
            shell("mount -t tmpfs -o size=\(megabytes)m tmpfs '\(directory.path)'") == 0, "mounting a small tmpfs failed: run as root")
        do {
            try await body(directory)
        } catch {
            await shell("umount -l '\(directory.path)'")
            throw error
        }
        await shell("umount -l '\(directory.path)'")
    }

    /// A small volume (a container's, a VPS disk near its end) is not filled by the write-ahead log: its
    /// checkpoints come sooner when the disk has little room (``WALBudget``), so single receipts, one commit
    /// each, go on being taken where a 64 MB log filled 24 MB after about 800.
    @Test(.enabled(if: geteuid() == 0, "needs root to mount a small tmpfs (CI and the project's machines run as root)"))
    func aSmallVolumeIsNotFilledByTheLog() async throws {
        try await Self.onSmallVolume(megabytes: 24) { directory in try await takeSingleReceipts(on: directory) }
    }

    private func takeSingleReceipts(on directory: URL) async throws {
        let server = try ServerProcess(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-small-log-\(UUID().uuidString)"),
            database: directory.appendingPathComponent("pushtally.sqlite").path)
        defer { server.removeFiles() }
        try await server.start()
        // Python's http.client on one keep-alive connection: a receipt a request, each its own commit.
        let sender = #"""
            import http.client, sys
            connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
            statuses = {}
            for index in range(3000):
                connection.request("POST", "/v1/receipts", body=f"push_id=small&receipt_id=r{index}",
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})
                response = connection.getresponse()
                response.read()
                statuses[response.status] = statuses.get(response.status, 0) + 1
            print(" ".join(f"{status}:{count}" for status, count in sorted(statuses.items())))
            """#
        let sent = try await runProcess("/usr/bin/env", ["python3", "-c", sender, String(server.port)], includingErrors: true)
        #expect(sent.output.trimmingCharacters(in: .whitespacesAndNewlines) == "204:3000", "\(sent.output)")
        let wal = (try? FileManager.default.attributesOfItem(atPath: server.databasePath + "-wal"))?[.size] as? Int ?? 0
        #expect(wal < 12 << 20, "the log holds \(wal) bytes of a 24 MB volume")
        // What an operator's alert reads: this small disk, its free space and the log, as the system has them.
        let metrics = String(decoding: try await httpRequest(server.baseURL.appendingPathComponent("metrics")).body, as: UTF8.self)
        func gauge(_ name: String) -> Double? {
            metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
        }
        let size = try #require(gauge("pushtally_disk_size_bytes"), "\(metrics)")
        let free = try #require(gauge("pushtally_disk_free_bytes"))
        let logged = try #require(gauge("pushtally_database_wal_bytes"))
        #expect(size > 16 * 1_048_576 && size <= 24 * 1_048_576, "a 24 MB volume, said to be \(size) bytes")
        #expect(free > 0 && free < size)
        let nowLogged = (try? FileManager.default.attributesOfItem(atPath: server.databasePath + "-wal"))?[.size] as? Int ?? 0
        #expect(logged <= Double(max(wal, nowLogged)) && logged < 12 * 1_048_576, "the log said to be \(logged) bytes")
        #expect(try await server.stop() == 0)
        #expect(try storedReceiptIDs(server.databasePath, pushID: "small").count == 3000)
    }

    private func fillTheDiskAndRecover(_ directory: URL) async throws {
        // The database on the small filesystem, the server's log off it: a full disk must not silence the log.
        let server = try ServerProcess(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-full-log-\(UUID().uuidString)"),
            database: directory.appendingPathComponent("pushtally.sqlite").path)
        defer { server.removeFiles() }
        try await server.start()

        let url = server.baseURL.appendingPathComponent("v1/receipts")
        var acknowledged: [String] = []
        var refusal: (status: Int, retryAfter: String?, error: String?, message: String?)?
        for batch in 0..<400 where refusal == nil {
            // Some receipts are acknowledged first; then the disk fills up.
            if batch == 3 { await shell("dd if=/dev/zero of='\(directory.path)/filler' bs=64k 2>/dev/null") }
            let ids = (0..<200).map { "full-\(batch)-\($0)-" + String(repeating: "x", count: 64) }
            let body = ids.map { #"{"push_id":"full","receipt_id":"\#($0)","device_id":"\#($0)"}"# }.joined(separator: "\n")
            let response = try await httpRequest(url, method: "POST", headers: ["Content-Type": "application/x-ndjson"], body: Data(body.utf8))
            if response.status == 200 {
                acknowledged += ids
            } else {
                let answer = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                refusal = (response.status, response.headers["retry-after"], answer?["error"] as? String, answer?["message"] as? String)
            }
        }
        let refused = try #require(refusal, "the disk never filled")
        let firstRefusal = ContinuousClock.now
        #expect(refused.status == 503)
        // Storage unavailable (Retry-After 30), not an overloaded writer (Retry-After 1).
        #expect(refused.retryAfter == "30")
        #expect(refused.error == "unavailable")
        #expect(refused.message?.contains("the disk is full") == true, "\(refused.message ?? "no message")")
        #expect(acknowledged.count == 600)
        // Refused again and again while full: the log says so once (then once per 10 s), not once a request.
        for _ in 0..<50 {
            _ = try await httpRequest(
                url, method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("push_id=full".utf8))
        }
        let failureLines = server.log.split(separator: "\n").filter { $0.contains("storage unavailable") }
        // The first in full, then a summary every 10 s at most: a loaded machine may take more than 10 s here.
        let summaries = Int((ContinuousClock.now - firstRefusal) / .seconds(10)) + 1
        #expect((1...(1 + summaries)).contains(failureLines.count), "\(failureLines.count) lines for 51 refusals")
        let health = try await httpRequest(server.baseURL.appendingPathComponent("healthz"))
        print("disk full: acknowledged \(acknowledged.count) receipts before 503; /healthz answered \(health.status)")
        #expect(health.status == 503)
        #expect(health.headers["retry-after"] != nil)

        // Space returns: the server takes receipts again without a restart.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("filler"))
        var recovered = false
        for _ in 0..<50 where !recovered {
            let response = try await httpRequest(
                url, method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("push_id=full&receipt_id=after".utf8))
            recovered = response.status == 204
            if !recovered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(recovered)
        #expect(try await httpRequest(server.baseURL.appendingPathComponent("healthz")).status == 200)
        #expect(try await server.stop() == 0)
        let stored = try storedReceiptIDs(server.databasePath, pushID: "full")
        #expect(Set(acknowledged).subtracting(stored).isEmpty)
        #expect(stored.contains("after"))
    }
}
