import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// A database written before platforms were folded at the door holds one platform in several spellings (`iOS`,
/// `IOS`, `ios`), even within one push and one retried receipt. The migration folds them and merges their rows;
/// every report then equals the one of a database that was sent the folded names from the first, through the
/// ledger, the live rollups and a rebuild.
@Suite struct PlatformCaseMigrationTests {
    /// `platform` in a spelling of its own for the `n`-th event: as sent, capitalised, shouted.
    static func mangled(_ platform: String?, _ n: Int) -> String? {
        guard let platform else { return nil }
        switch n % 3 {
        case 0: return platform
        case 1: return platform.prefix(1).uppercased() + platform.dropFirst()
        default: return platform.uppercased()
        }
    }

    static func events(_ prefix: String, now: Int64, mangled: Bool) -> [IncomingEvent] {
        PushPlatformStoreTests.events(now: now).enumerated().map { n, event in
            var event = event
            event.receiptID = event.receiptID.map { "\(prefix)-\($0)" }
            if mangled { event.platform = Self.mangled(event.platform, n) }
            return event
        }
    }

    /// Fills `store` as an older door would have (`mangled`) or as today's does: sends from two platforms, events
    /// pruned into the ledger, then events kept raw, all timed from `now`.
    static func fill(_ store: any TestStore, now: Int64, mangled: Bool) async throws {
        for (push, campaign) in PushPlatformStoreTests.campaigns.sorted(by: { $0.key < $1.key }) {
            _ = try await store.register(PushRegistration(
                pushID: push, campaign: campaign, sentAtMillis: now - 86_400_000,
                counts: SendCounts(targeted: 20, sent: 10, failed: ["Unregistered": 2])))
        }
        for (n, platform) in ["android", "ios"].enumerated() {
            try await store.addSends(SendBatch(
                pushID: "p-1", batchID: "b-\(platform)",
                counts: SendCounts(targeted: 9, sent: 8, failed: ["Unregistered": 1], platform: mangled ? Self.mangled(platform, n + 1) : platform)))
        }
        let old = Self.events("old", now: now, mangled: mangled)
        _ = try await store.ingest(old)
        #expect(try await store.prune(receivedBefore: MediaRollupTests.afterNow, batchSize: MaintenancePlan.batchSize) == old.count)
        _ = try await store.ingest(Self.events("new", now: now, mangled: mangled))
    }

    /// What the reports that split by platform count, as text that compares whole (no time of the run in it).
    static func read(_ store: any TestStore) async throws -> [String] {
        func rows(_ rows: [CampaignRow]) -> String {
            rows.map { row in
                let funnel = row.funnel
                let actions = funnel.actions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.total)/\($0.value.duplicates)" }
                return "\(row.campaign ?? "-") \(String(describing: row.attribute)) pushes \(funnel.pushes) sends \(funnel.targeted)/\(funnel.sent)/"
                    + "\(funnel.failed) displays \(funnel.displays.total)/\(funnel.displays.duplicates) \(actions)"
            }.joined(separator: "\n")
        }
        var read = [rows(try await store.campaignRows(ReportFilter(), by: .platform))]
        for platform in ["ios", "android", "web", "kaios", ReportGrouping.unknownPlatform] {
            read.append(rows(try await store.campaignRows(ReportFilter(platform: platform), by: nil)))
            read.append(try await store.bucketCounts(ReportFilter(platform: platform)).map { "\($0)" }.sorted().joined(separator: "\n"))
        }
        read.append(try await store.versionCounts(ReportFilter(), dimension: .platform).map { "\($0)" }.sorted().joined(separator: "\n"))
        return read
    }

    @Test(arguments: StoreKind.allCases) func storedSpellingsOfAPlatformBecomeOne(kind: StoreKind) async throws {
        let now = StoreConfiguration.systemClock()
        let expected = try await withStore(kind) { store in
            try await Self.fill(store, now: now, mangled: false)
            return try await Self.read(store)
        }
        try await FreshStore.with(kind) { fresh in
            let first = try await fresh.testStore()
            try await Self.fill(first, now: now, mangled: true)
            #expect(try await Self.read(first) != expected, "the spellings are apart before the migration, or it proves nothing")
            try await undoMigration(
                first, kind: kind, dropping: [], sqlite: PlatformCaseMigration.sqliteIdentifier,
                postgres: PlatformCaseMigration.postgresVersion)
            let migrated = try await fresh.testStore()
            defer { migrated.closeInBackground() }
            #expect(try await Self.read(migrated) == expected)
            for (table, column) in [("events", "platform"), ("push_send_platforms", "platform"), ("rollup_platform_bucket", "platform"),
                                    ("ledger_platform_bucket", "platform"), ("rollup_version", "version"), ("ledger_version", "version")] {
                let stored = try await migrated.textRows("SELECT DISTINCT \(column) FROM \(table) WHERE \(column) IS NOT NULL")
                #expect(stored.allSatisfy { $0.allSatisfy { $0 == $0?.lowercased() } }, "\(table): \(stored)")
            }
            try await migrated.rebuildRollups()
            #expect(try await Self.read(migrated) == expected)
        }
    }

    @Test func theDoorFoldsASCIILettersOnly() {
        #expect(PlatformName.folded("iOS") == "ios" && PlatformName.folded("ANDROID") == "android")
        #expect(PlatformName.folded("kaios") == "kaios")
        #expect(PlatformName.folded("ÉCRAN-TV") == "Écran-tv", "only ASCII letters fold, as both engines fold them")
    }
}
