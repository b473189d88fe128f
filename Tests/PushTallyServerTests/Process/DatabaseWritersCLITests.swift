import Foundation
import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// `serve --database-writers` on the real binary: out-of-range values and SQLite refused naming the flag, and a
/// PostgreSQL collector with two writers storing every receipt Python's `urllib` had acknowledged.
@Suite struct DatabaseWritersCLITests {
    @Test func writersOutOfRangeOrOnSQLiteAreRefusedNamingTheFlag() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-writers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = directory.appendingPathComponent("w.sqlite").path
        // Refused before any connection is tried: the URL names no server.
        let postgres = "postgres://nobody:none@127.0.0.1:1/none"
        let cases: [(arguments: [String], environment: [String: String], message: String)] = [
            (["--database-writers", "0", "--database", postgres], [:], "--database-writers must be from 1 to 16, not 0"),
            (["--database-writers", "17", "--database", postgres], [:], "--database-writers must be from 1 to 16, not 17"),
            (["--database", postgres, "--database-connections", "4", "--database-writers", "4"], [:],
             "--database-writers (4) must be below --database-connections (4)"),
            (["--database-writers", "2", "--database", sqlite], [:], "--database-writers applies to PostgreSQL"),
            (["--database", postgres], ["PUSHTALLY_DATABASE_WRITERS": "many"], "PUSHTALLY_DATABASE_WRITERS must be a number, not many"),
        ]
        for refusal in cases {
            let refused = try await runPushtally(["serve", "--port", "0"] + refusal.arguments, environment: refusal.environment)
            #expect(refused.status == 64, "\(refusal.arguments)")
            #expect(refused.stderr.contains(refusal.message), "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: sqlite), "a refused serve creates no database")
    }

    @Test func aCollectorWithTwoWritersStoresEveryAcknowledgedReceipt() async throws {
        try await FreshStore.with(.postgres, name: "writers") { fresh in
            let server = try ServerProcess(
                directory: fresh.directory.appendingPathComponent("collector"), database: fresh.database,
                extraArguments: ["--device-secret", fresh.secretPath, "--database-connections", "4", "--database-writers", "2"])
            defer { server.removeFiles() }
            try await server.start()
            // Eight threads post at once, so both writers have commits to make; each counts what was answered 204.
            let script = """
                import sys, threading, urllib.parse, urllib.request
                acknowledged = []
                def post(thread):
                    for n in range(40):
                        body = urllib.parse.urlencode({"push_id": "p%d" % (n % 2), "receipt_id": "t%d-%d" % (thread, n)}).encode()
                        with urllib.request.urlopen(urllib.request.Request(sys.argv[1] + "/v1/receipts", data=body)) as answer:
                            if answer.status == 204: acknowledged.append(1)
                threads = [threading.Thread(target=post, args=(t,)) for t in range(8)]
                for t in threads: t.start()
                for t in threads: t.join()
                print(len(acknowledged))
                """
            let posted = try await runProcess("/usr/bin/python3", ["-c", script, server.baseURL.absoluteString])
            #expect(posted.status == 0, "\(posted.output)")
            #expect(posted.output.trimmingCharacters(in: .whitespacesAndNewlines) == "320")
            #expect(try await server.stop() == 0)
            var displayed = 0
            for push in ["p0", "p1"] {
                let report = try await runPushtally(
                    ["report", "push", push, "--format", "json", "--database", fresh.database, "--device-secret", fresh.secretPath])
                #expect(report.status == 0, "\(report.stderr)")
                let json = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
                let row = (json?["pushes"] as? [[String: Any]])?.first
                displayed += (row?["displayed"] as? Int) ?? -1
            }
            #expect(displayed == 320, "every acknowledged receipt stored once")
            // Each writer counts into a rollup shard of its own: two collector shards hold the pushes' counts, not
            // one (a row's shard is its day's block of 16 plus the collector shard, so a run across midnight counts alike).
            let store = try await PostgresStore(
                url: fresh.database, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout,
                commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            let shards = try await store.textRows("SELECT DISTINCT shard % 16 FROM rollup_push")
            #expect(shards.count == 2, "the receipts were committed by \(shards.count) writers")
        }
    }
}
