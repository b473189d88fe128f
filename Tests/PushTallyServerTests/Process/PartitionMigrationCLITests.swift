import Foundation
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// The in-place partitioning of a PostgreSQL database of the earlier schema, as an operator sees it: the
/// first command to open the database moves its raw events into day partitions and prints its progress.
@Suite struct PartitionMigrationCLITests {
    @Test func theFirstCommandPartitionsAnOldDatabaseAndPrintsProgress() async throws {
        try await TestPostgres.withDatabase { url in
            let old = try await PostgresStore(
                url: url, deviceSecretPath: nil, maximumConnections: 2,
                migrationLimits: PostgresSchema.Limits(skipping: [PartitionMigration.version]))
            try await old.register(PushRegistration(pushID: "cli-push", campaign: "cli", sentAtMillis: 1_795_000_000_000))
            _ = try await old.ingest((0..<120).map { IncomingEvent(pushID: "cli-push", kind: .display, receiptID: "r\($0)") })
            await old.shutdown()

            let run = try await runPushtally(["report", "push", "cli-push", "--format", "json", "--database", url])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("partitioning raw events by day: 120 to move"), "\(run.stderr)")
            #expect(run.stderr.contains("partitioning raw events by day: 120 of 120 moved"), "\(run.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            let pushes = try #require(report?["pushes"] as? [[String: Any]])
            #expect(pushes.first?["displayed"] as? Int == 120)

            // Once migrated, a command prints nothing about it.
            let again = try await runPushtally(["report", "push", "cli-push", "--format", "json", "--database", url])
            #expect(again.status == 0)
            #expect(!again.stderr.contains("partitioning"))
            #expect(again.stdout == run.stdout)
        }
    }
}
