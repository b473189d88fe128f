import Foundation
import PushTallyTestSupport
import GRDB
import HummingbirdTesting
import PushTallyCore
import Testing

@testable import PushTallyServer

@Suite(.serialized) struct LifecycleCLITests {
    func count(_ path: String, _ sql: String) throws -> Int {
        try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    }

    @Test func exportImportRoundTripIsIdempotent() async throws {
        let server = try await CLITests().seededServer()
        defer { server.removeFiles() }
        #expect(try await server.stop() == 0)
        let export = server.directory.appendingPathComponent("events.ndjson.gz").path
        let exported = try await runPushtally(["export", "--output", export, "--database", server.databasePath])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("exported 7 raw events"))
        // gzip on disk, with the format line first.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: export))
        #expect(Array(bytes.prefix(2)) == [0x1F, 0x8B])

        let target = server.directory.appendingPathComponent("copy.sqlite").path
        let first = try await runPushtally(["import-events", export, "--database", target])
        #expect(first.stdout.contains("imported 7 new"), "\(first.stdout) \(first.stderr)")
        let second = try await runPushtally(["import-events", export, "--database", target])
        #expect(second.stdout.contains("imported 0 new, skipped 7"))
        // The same raw counts land in the copy's rollups.
        let original = try await runPushtally(["report", "pushes", "--format", "csv", "--database", server.databasePath])
        let copy = try await runPushtally(["report", "pushes", "--format", "csv", "--database", target])
        func displayed(_ csv: String) -> [String: String] {
            let records = CSVParser.parse(csv)
            let id = records[0].firstIndex(of: "push_id")!
            let column = records[0].firstIndex(of: "displayed_unique")!
            return Dictionary(uniqueKeysWithValues: records.dropFirst().map { ($0[id], $0[column]) })
        }
        #expect(displayed(original.stdout) == displayed(copy.stdout))
        // An export cut short (a copy that stopped half-way) is refused, saying so, not taken as a whole file; the
        // same file whole is taken afterwards.
        let cut = server.directory.appendingPathComponent("cut.ndjson.gz").path
        try bytes.prefix(bytes.count - 4).write(to: URL(fileURLWithPath: cut))
        let partial = server.directory.appendingPathComponent("partial.sqlite").path
        let refused = try await runPushtally(["import-events", cut, "--database", partial])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("is not a whole gzip file"), "\(refused.stderr)")
        #expect(try await runPushtally(["import-events", export, "--database", partial]).stdout.contains("read 7 events"))
        // Importing into the source itself adds nothing.
        #expect(try await runPushtally(["import-events", export, "--database", server.databasePath]).stdout.contains("imported 0 new"))
        let notAnExport = server.directory.appendingPathComponent("bad.gz").path
        try Data("plain".utf8).write(to: URL(fileURLWithPath: notAnExport))
        #expect(try await runPushtally(["import-events", notAnExport, "--database", target]).status != 0)
    }

    @Test func pruneRebuildForgetAndBackupFromTheCLI() async throws {
        let server = try await CLITests().seededServer()
        defer { server.removeFiles() }
        // A backup while the server runs and takes writes.
        let backup = server.directory.appendingPathComponent("backup.sqlite").path
        let made = try await runPushtally(["backup", backup, "--database", server.databasePath])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try count(backup, "SELECT count(*) FROM events") == 7)
        #expect(FileManager.default.fileExists(atPath: backup + ".secret"))
        #expect(try await runPushtally(["backup", backup, "--database", server.databasePath]).status == 4)
        #expect(try await server.stop() == 0)

        let before = try await runPushtally(["report", "campaigns", "--format", "json", "--database", server.databasePath]).stdout
        let forgot = try await runPushtally(["forget", "--device", "a", "--database", server.databasePath])
        #expect(forgot.stdout.contains("forgot 2 raw events"))
        let pruned = try await runPushtally(["prune", "--older-than", "0s", "--database", server.databasePath])
        #expect(pruned.stdout.contains("pruned 5 raw events"))
        #expect(try count(server.databasePath, "SELECT count(*) FROM events") == 0)
        let rebuilt = try await runPushtally(["rollup", "rebuild", "--database", server.databasePath])
        #expect(rebuilt.status == 0)
        let after = try await runPushtally(["report", "campaigns", "--format", "json", "--database", server.databasePath]).stdout
        #expect(after == before)
        #expect(try await runPushtally(["prune", "--older-than", "soon", "--database", server.databasePath]).status == 64)
        #expect(try await runPushtally(["prune", "--before", "0x10", "--database", server.databasePath]).status == 64)
        #expect(try await runPushtally(["prune", "--before", "1", "--older-than", "1d", "--database", server.databasePath]).status == 64)
    }

    /// Retention keeps whole UTC days: the cutoff is the start of the day the window ends in.
    @Test func retentionCutsAtTheStartOfADay() {
        let midnight: Int64 = 1_795_132_800_000  // 2026-11-20T00:00:00Z
        let day: Int64 = 86_400_000
        #expect(RetentionService.cutoff(now: midnight, retentionMillis: day) == midnight - day)
        #expect(RetentionService.cutoff(now: midnight + 1, retentionMillis: day) == midnight - day)
        // The next day is not yet whole until its last millisecond has passed.
        #expect(RetentionService.cutoff(now: midnight + day - 1, retentionMillis: day) == midnight - day)
        // Today's events wait for tomorrow, however short the window.
        #expect(RetentionService.cutoff(now: midnight + day / 2, retentionMillis: 1) == midnight)
        #expect(RetentionService.cutoff(now: day / 2, retentionMillis: day) == -day)
    }

    @Test func theServerPrunesPastRetentionInTheBackground() async throws {
        var configuration = ServerConfiguration(port: 0, retentionMillis: 1)
        configuration.pruneIntervalSeconds = 1
        // The store's clock moves a day on once the receipts are in: their day is then wholly past the window.
        let offset = ClockOffset()
        let store = StoreConfiguration(clock: { StoreConfiguration.systemClock() + offset.millis })
        try await withApp(.live, configuration: configuration, store: store) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await client.json(.post, "/v1/receipts", #"[{"push_id":"p","device_id":"a"},{"push_id":"p","device_id":"b"}]"#)
            let before = try await campaignRows(client, fixture)
            offset.millis = 86_400_000
            var remaining = try await fixture.store.rawEventCount()
            for _ in 0..<100 where remaining > 0 {
                try await Task.sleep(for: .milliseconds(100))
                remaining = try await fixture.store.rawEventCount()
            }
            #expect(remaining == 0)
            let after = try await campaignRows(client, fixture)
            #expect(after[""]?["displayed_unique"] as? Int == 2)
            #expect(before[""]?["displayed_unique"] as? Int == 2)
        }
    }
}

/// A shift of the store's clock that a test moves while the server runs.
private final class ClockOffset: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0
    var millis: Int64 {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
