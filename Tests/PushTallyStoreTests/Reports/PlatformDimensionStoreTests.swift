import Foundation
import GRDB
import PushTallyCore
import PushTallySQLite
import PushTallyTestSupport
import Testing

/// Receipt health by platform (`dimension=platform`): counts per platform equal a recount of the raw events,
/// receipts without one being `unknown`, through pruning, a rebuild and the migration that fills the platform
/// rows of a database written before they were kept.
@Suite struct PlatformDimensionStoreTests {
    /// Receipts and actions from the known platforms, a custom one, none, with retries, and custom actions past
    /// the bound of one admitted id (folded to `other`, as the rollups fold them).
    static let events: [IncomingEvent] = {
        var events: [IncomingEvent] = []
        for (index, platform) in ["ios", "android", "web", "kaios", nil, "ios", "web", nil, "ios"].enumerated() {
            let push = "push-\(index % 3)"
            let display = IncomingEvent(pushID: push, kind: .display, receiptID: "r-\(index)", platform: platform)
            events += [display, display]  // the second is a retry
            events.append(IncomingEvent(pushID: push, kind: .action, action: "open", receiptID: "o-\(index)", platform: platform))
            if index % 2 == 0 {
                events.append(IncomingEvent(pushID: push, kind: .action, action: index % 4 == 0 ? "reply" : "later", platform: platform))
            }
        }
        return events
    }()

    /// The platform counts recounted from the raw events: the action folded as the store's admitted ids say.
    static func recount(_ store: any TestStore) async throws -> Set<VersionCount> {
        let admitted = Set(try await store.column("SELECT action FROM action_ids").compactMap { $0 })
        var counts: [String: EventCount] = [:]
        for row in try await store.textRows("SELECT kind, action, platform, duplicate FROM events") {
            let kind = EventKind(rawValue: Int(row[0]!)!)!
            var action = row[1]!
            if ActionIDs.isCustom(kind: kind, action: action), !admitted.contains(action) { action = ActionIDs.overflow }
            let key = [row[2] ?? "", String(kind.rawValue), action].joined(separator: "\u{1}")
            counts[key, default: EventCount()].total += 1
            if row[3] == "1" { counts[key, default: EventCount()].duplicates += 1 }
        }
        return Set(counts.map { key, count in
            let parts = key.components(separatedBy: "\u{1}")
            return VersionCount(version: parts[0], kind: EventKind(rawValue: Int(parts[1])!)!, action: parts[2], count: count)
        })
    }

    static func platformCounts(_ store: any TestStore) async throws -> Set<VersionCount> {
        Set(try await store.versionCounts(ReportFilter(), dimension: .platform))
    }

    @Test(arguments: StoreKind.allCases) func platformCountsEqualARecountThroughPruneAndRebuild(kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            let store = try await fresh.testStore(maxActionIDs: 1)
            defer { store.closeInBackground() }
            _ = try await store.ingest(Self.events)
            let counted = try await Self.platformCounts(store)
            #expect(counted == (try await Self.recount(store)))
            #expect(Set(counted.map(\.version)) == ["ios", "android", "web", "kaios", ""])
            #expect(counted.contains(VersionCount(version: "", kind: .display, action: "", count: EventCount(total: 4, duplicates: 2))))
            #expect(counted.contains { $0.action == ActionIDs.overflow }, "a custom id past the bound counts as other")

            let table = try await store.report(ReportRequest(.versions(.platform)))
            let csv = CSVRenderer.render(table)
            #expect(csv.contains("unknown") && csv.contains("kaios") && csv.contains("web"))

            // Pruned events are counted in the ledger with their platform: reports and a rebuild keep the counts.
            #expect(try await store.prune(receivedBefore: StoreConfiguration.systemClock() + 86_400_000, batchSize: 7) == Self.events.count)
            #expect(try await Self.platformCounts(store) == counted)
            try await store.rebuildRollups()
            #expect(try await Self.platformCounts(store) == counted)
        }
    }

    /// Media outcomes are kept per app and OS version, not per platform: receipt health by platform leaves
    /// their columns empty rather than putting every outcome on one row; by app version they are there.
    @Test(arguments: StoreKind.allCases) func receiptHealthByPlatformLeavesTheMediaColumnsEmpty(kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            let store = try await fresh.testStore(maxActionIDs: 1)
            defer { store.closeInBackground() }
            var display = IncomingEvent(pushID: "p", kind: .display, receiptID: "m1", platform: "ios")
            display.media = .attached
            display.appVersion = "3.1"
            _ = try await store.ingest([display])
            let byPlatform = try await store.report(ReportRequest(.versions(.platform)))
            #expect(!byPlatform.rows.isEmpty)
            #expect(byPlatform.values(of: "media_attached").allSatisfy { $0 == .integer(0) })
            #expect(byPlatform.values(of: "rich_rate").allSatisfy { $0 == .rate(nil) })
            let byVersion = try await store.report(ReportRequest(.versions(.appVersion)))
            #expect(byVersion.values(of: "media_attached").contains(.integer(1)))
            #expect(byVersion.values(of: "rich_rate").contains(.rate(1)))
        }
    }

    /// A database whose events were stored before platform rows were kept gets them from its raw events when
    /// it migrates, the same rows ingest writes.
    @Test(arguments: StoreKind.allCases) func theMigrationFillsPlatformRowsFromRawEvents(kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            let written = try await fresh.testStore(maxActionIDs: 1)
            _ = try await written.ingest(Self.events)
            let expected = try await Self.platformCounts(written)
            // Back to the schema before the migration: no platform rows, the migration not applied.
            let undo = [
                "DELETE FROM rollup_version WHERE dimension = \(VersionDimension.platform.rawValue)",
                kind == .sqlite
                    ? "DELETE FROM grdb_migrations WHERE identifier = 'v15-platform-dimension'"
                    : "DELETE FROM pushtally_migrations WHERE version = 13",
            ]
            if let sqlite = written as? SQLiteStore {
                try await sqlite.pool.write { db in for statement in undo { try db.execute(sql: statement) } }
            } else {
                for statement in undo { _ = try await written.textRows(statement) }
            }
            #expect(Set(try await Self.platformCounts(written).map(\.version)) == [""], "every receipt unknown before the migration")
            await written.shutdown()

            let migrated = try await fresh.testStore(maxActionIDs: 1)
            defer { migrated.closeInBackground() }
            #expect(try await Self.platformCounts(migrated) == expected)
            #expect(try await Self.platformCounts(migrated) == (try await Self.recount(migrated)))
        }
    }
}
