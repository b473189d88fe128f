import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// Two collectors on one PostgreSQL database take receipts and send records at once, so their commits
/// interleave, while one reader follows `GET /v1/events` (Python's urllib) and another exports files through the
/// other collector every second or so: every acknowledged event reaches each of them exactly once.
@Suite(.serialized) struct EventFeedScenarioTests {
    @Test func aFollowerAndAnExporterGetEveryAcknowledgedEventOnce() async throws {
        try await FreshStore.with(.postgres, name: "feed-scenario") { fresh in
            var collectors: [ServerProcess] = []
            defer { collectors.forEach { $0.removeFiles() } }
            for index in 0..<2 {
                let collector = try ServerProcess(
                    directory: fresh.directory.appendingPathComponent("collector-\(index)"), database: fresh.database,
                    extraArguments: ["--device-secret", fresh.secretPath, "--database-connections", "4"])
                try await collector.start()
                collectors.append(collector)
            }
            let servers = collectors
            let token = servers[0].adminToken
            let clients = 4
            let perClient = 75
            // Every 15th post of a client is followed by a send record, one batch each.
            let sendsPerClient = (0..<perClient).filter { $0 % 15 == 0 }.count
            let total = clients * (perClient + sendsPerClient)
            let following = fresh.directory.appendingPathComponent("following").path
            async let follower = runProcess(
                "/usr/bin/env",
                ["python3", PackageRoot.file("Tests/feed/follow.py").path, servers[0].baseURL.absoluteString, token, "count",
                 String(total + 1), following], includingErrors: true)
            // The stream is open before the first receipt, so it reads them as they commit.
            try await Self.post(servers[0], #"{"push_id":"p-open","receipt_id":"opening"}"#)
            while !FileManager.default.fileExists(atPath: following) { try await Task.sleep(for: .milliseconds(20)) }

            let out = fresh.directory.appendingPathComponent("files").path
            let exporter = ["export", "--out", out, "--rows-per-file", "40", "--server", servers[1].baseURL.absoluteString, "--token", token]
            let done = Flag()
            async let exports: Int = {
                var runs = 0
                while !done.isSet {
                    let run = try await runPushtally(exporter)
                    #expect(run.status == 0, "\(run.stderr)")
                    runs += 1
                    try await Task.sleep(for: .seconds(1))
                }
                return runs
            }()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<clients {
                    group.addTask {
                        for n in 0..<perClient {
                            // Alternate collectors, so each commits while the other does.
                            let collector = servers[(client + n) % servers.count]
                            try await Self.post(collector, #"{"push_id":"p\#(n % 3)","receipt_id":"c\#(client)-\#(n)","device_id":"d\#(client)"}"#)
                            if n % 15 == 0 {
                                try await Self.post(
                                    servers[(client + n + 1) % servers.count],
                                    #"{"batch_id":"c\#(client)-\#(n)","campaign":"scenario","sent":1}"#, to: "v1/pushes/p\(n % 3)/sends",
                                    token: token)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            done.set()
            let runs = try await exports
            #expect(runs >= 1)
            var expected: Set<String> = ["opening"]
            for client in 0..<clients {
                for n in 0..<perClient {
                    expected.insert("c\(client)-\(n)")
                    if n % 15 == 0 { expected.insert("send:c\(client)-\(n)") }
                }
            }
            #expect(expected.count == total + 1)

            // The follower read every receipt once, in one stream.
            let followed = try await follower
            let result = try #require(JSONSerialization.jsonObject(with: Data(followed.output.utf8)) as? [String: Any], "\(followed.output)")
            let lines = (result["lines"] as? [[String: Any]] ?? []).filter { $0["event_id"] != nil }
            let streamed = lines.compactMap { ($0["receipt_id"] as? String) ?? ($0["batch_id"] as? String).map { "send:" + $0 } }
            #expect(Set(streamed) == expected && streamed.count == Set(streamed).count, "each event once in the stream")
            let ids = lines.compactMap { $0["event_id"] as? String }
            #expect(ids.count == Set(ids).count, "no event id twice")

            // The files, once an export has caught up: each receipt in exactly one listed file.
            var manifest = try JSONDecoder().decode(FeedManifest.self, from: Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("manifest.json")))
            while manifest.rows < expected.count {
                let run = try await runPushtally(exporter)
                #expect(run.status == 0, "\(run.stderr)")
                manifest = try JSONDecoder().decode(FeedManifest.self, from: Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("manifest.json")))
                if manifest.rows < expected.count { try await Task.sleep(for: .milliseconds(200)) }
            }
            var exported: [String] = []
            for file in manifest.files {
                let text = try await runProcess("/usr/bin/env", ["gzip", "-dc", URL(fileURLWithPath: out).appendingPathComponent(file.name).path]).output
                exported += try text.split(separator: "\n").map { line in
                    let event = try ExportFormat.event(line: String(line))
                    return event.receipt_id ?? event.batch_id.map { "send:" + $0 } ?? ""
                }
            }
            #expect(exported.count == expected.count && Set(exported) == expected, "each event in exactly one file, over \(runs) runs")
            for collector in servers { #expect(try await collector.stop() == 0) }
        }
    }

    static func post(_ server: ServerProcess, _ body: String, to path: String = "v1/receipts", token: String? = nil) async throws {
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        for attempt in 1...20 {
            let status = try? await httpRequest(
                server.baseURL.appendingPathComponent(path), method: "POST", headers: headers, body: Data(body.utf8)
            ).status
            if let status, (200..<300).contains(status) { return }
            guard attempt < 20 else { throw TestFailure("\(body) was never acknowledged") }
        }
    }
}

/// A flag one task sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
