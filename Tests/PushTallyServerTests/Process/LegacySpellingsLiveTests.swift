import Foundation
import GRDB
import PushTallyCore
import PushTallySQLite
import PushTallyTestSupport
import Testing

/// A database an older version left with one push id in two spellings, as an operator meets it: the first
/// command to open it warns that the second spelling is kept apart, and `serve` says so again at every start.
@Suite struct LegacySpellingsLiveTests {
    @Test func theUpgradeAndEveryStartWarnOfSpellingsKept() async throws {
        try await FreshStore.with(.sqlite, name: "spellings") { fresh in
            let path = fresh.sqlitePath
            // The store's own calls take names as given, as the older version's door did; then the database goes back
            // to the schema before the spelling migration.
            let old = try SQLiteStore(path: path, commitTimeout: FreshStore.patientCommitTimeout)
            _ = try await old.register(PushRegistration(pushID: "Bar\u{E9}-1", campaign: "spellings", counts: SendCounts(sent: 7)))
            _ = try await old.register(PushRegistration(pushID: "Bare\u{301}-1", campaign: "spellings", counts: SendCounts(sent: 3)))
            await old.shutdown()
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: "DROP TABLE legacy_spellings")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [SpellingMigration.sqliteIdentifier])
            }
            try queue.close()

            let warning = "1 stored names are kept in a spelling other than NFC"
            let run = try await runPushtally(["report", "campaign", "spellings", "--format", "json", "--database", path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains(warning) && run.stderr.contains("push_id Bare\\u{301}-1"), "\(run.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            let pushes = try #require(report?["pushes"] as? [[String: Any]])
            #expect(pushes.compactMap { $0["sent"] as? Int }.sorted() == [3, 7])

            let again = try await runPushtally(["report", "campaign", "spellings", "--format", "json", "--database", path])
            #expect(!again.stderr.contains(warning), "the migration warns once")

            let server = try ServerProcess(directory: fresh.directory)
            try await server.start()
            let status = try await server.stop()
            #expect(status == 0)
            #expect(server.log.contains(warning) && server.log.contains("push_id Bare\\u{301}-1"), "\(server.log)")
        }
    }
}
