import Foundation
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

/// Posts receipts with unique ids from `workers` concurrent clients until the server stops answering;
/// returns the ids that were acknowledged with a 2xx.
func loadUntilDown(_ server: ServerProcess, pushID: String, workers: Int = 8, perWorker: Int = 2000) async -> [String] {
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
            try server.start()
            let pushID = "crash-\(round)"
            async let acknowledged = loadUntilDown(server, pushID: pushID)
            try await Task.sleep(for: .milliseconds(400 + 200 * round))
            kill(server.process.processIdentifier, SIGKILL)
            let acked = await acknowledged
            server.process.waitUntilExit()
            #expect(server.process.terminationReason == .uncaughtSignal)
            let found = try storedReceiptIDs(server.databasePath, pushID: pushID)
            let lost = Set(acked).subtracting(found)
            print("crash round \(round): acknowledged \(acked.count), found \(found.count), lost \(lost.count)")
            #expect(!acked.isEmpty)
            #expect(lost.isEmpty, "round \(round) lost \(lost.sorted().prefix(5))")
            totalAcknowledged += acked.count
            totalLost += lost.count
            // The restarted server reports them too.
            let report = try runPushtally(["report", "push", pushID, "--format", "json", "--database", server.databasePath])
            let rows = (try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["pushes"] as? [[String: Any]]
            #expect((rows?.first?["displayed"] as? Int ?? 0) >= acked.count)
        }
        print("crash test: acknowledged \(totalAcknowledged), lost \(totalLost) over 3 SIGKILL rounds")
    }
}
