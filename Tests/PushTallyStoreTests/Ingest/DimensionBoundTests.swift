import Foundation
import PushTallyStores
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

/// Platforms and app and OS versions are report rows and rollup keys that any anonymous client can name, so each
/// app admits a bounded number of each; later ones count as `other`, every event is still counted, the raw
/// events keep what was sent, and every counting path (ingest, prune into the ledger, rebuild) folds alike.
@Suite struct DimensionBoundTests {
    static let bounds = NameBounds(actions: 4, platforms: 2, versions: 3)

    /// Displays of `pushID`: one per name of `names` in `field`, then iOS and Android ones that take no slot.
    static func displays(_ pushID: String, _ prefix: String, count: Int) -> [IncomingEvent] {
        (0..<count).map { n in
            IncomingEvent(
                pushID: pushID, kind: .display, receiptID: "\(pushID)-\(prefix)-\(n)", platform: "\(prefix)-tv-\(n)",
                appVersion: "\(prefix)-\(n)", osVersion: "\(prefix)-os-\(n % 4)")
        } + ["ios", "android", "ios", "other"].enumerated().map { n, platform in
            IncomingEvent(pushID: pushID, kind: .display, receiptID: "\(pushID)-std-\(n)", platform: platform, appVersion: "\(prefix)-0")
        }
    }

    /// One display of `pushID` whose platform and versions are all `name`.
    static func single(_ pushID: String, _ name: String) -> [IncomingEvent] {
        [IncomingEvent(pushID: pushID, kind: .display, receiptID: name, platform: name, appVersion: name, osVersion: name)]
    }

    /// Totals per name of a dimension over every push, as the versions report counts displays.
    static func counts(_ store: any TestStore, _ dimension: VersionDimension) async throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for row in try await store.versionCounts(ReportFilter(), dimension: dimension) where row.kind == .display && !row.version.isEmpty {
            counts[row.version, default: 0] += row.count.total
        }
        return counts
    }

    static func read(_ store: any TestStore) async throws -> [[String: Int64]] {
        var read: [[String: Int64]] = []
        for dimension in VersionDimension.allCases { read.append(try await counts(store, dimension)) }
        let byPlatform = try await store.campaignRows(ReportFilter(), by: .platform)
        let rows = byPlatform.map { row in ("\(row.campaign ?? "-")/\(String(describing: row.attribute))", row.funnel.displays.total) }
        read.append(Dictionary(rows) { $0 + $1 })
        return read
    }

    @Test(arguments: StoreKind.allCases) func eachAppKeepsItsFirstNamesAndCountsTheRestAsOther(_ kind: StoreKind) async throws {
        try await withStore(kind, nameBounds: Self.bounds) { store in
            try await store.register(PushRegistration(pushID: "a1", campaign: "spring", app: "com.example.a"))
            try await store.register(PushRegistration(pushID: "b1", campaign: "spring", app: "com.example.b"))
            let a = Self.displays("a1", "a", count: 6)
            for start in stride(from: 0, to: a.count, by: 3) { _ = try await store.ingest(Array(a[start..<min(start + 3, a.count)])) }
            _ = try await store.ingest(Self.displays("b1", "b", count: 5) + Self.displays("orphan", "o", count: 4))

            let platforms = try await Self.counts(store, .platform)
            // Two of each app's own, in arrival order; the standard platforms and `other` as sent take no slot.
            let ownPlatforms: [String: Int64] = [
                "a-tv-0": 1, "a-tv-1": 1, "b-tv-0": 1, "b-tv-1": 1, "o-tv-0": 1, "o-tv-1": 1, "ios": 6, "android": 3,
                // Past the bound in a (4), b (3) and the unregistered push (2), and `other` as sent (3).
                ActionIDs.overflow: 12,
            ]
            #expect(platforms == ownPlatforms)
            let versions = try await Self.counts(store, .appVersion)
            let ownVersions: [String: Int64] = [
                "a-0": 5, "a-1": 1, "a-2": 1, "b-0": 5, "b-1": 1, "b-2": 1, "o-0": 5, "o-1": 1, "o-2": 1, ActionIDs.overflow: 6,
            ]
            #expect(versions == ownVersions)
            let os = try await Self.counts(store, .osVersion)
            // os-0..3 of a's six displays (os-0 and os-1 twice): three admitted, os-3 past the bound.
            #expect(os["a-os-0"] == 2 && os["a-os-1"] == 2 && os["a-os-2"] == 1 && os["a-os-3"] == nil)
            #expect(os[ActionIDs.overflow] == 3)

            // The raw events keep every name as sent; the admitted sets hold each app's bound, no more.
            #expect(try await store.integers("SELECT COUNT(DISTINCT platform) FROM events WHERE push_id = 'a1'") == [6 + 3])
            let admitted = try await store.integers(
                "SELECT COUNT(*) FROM dimension_values WHERE app = 'com.example.a' GROUP BY dimension ORDER BY dimension")
            #expect(admitted == [3, 3, 2])
            #expect(try await store.integers("SELECT COUNT(*) FROM dimension_values WHERE app = '' AND dimension = 2") == [2])

            // Pruned into the ledger, then rebuilt from what is left: the same figures.
            let expected = try await Self.read(store)
            #expect(try await store.prune(receivedBefore: MediaRollupTests.afterNow, batchSize: 7) == 27)
            #expect(try await Self.read(store) == expected)
            _ = try await store.ingest(Self.single("a1", "late"))
            try await store.rebuildRollups()
            let rebuilt = try await Self.read(store)
            #expect(rebuilt[2][ActionIDs.overflow] == 13)
            #expect(rebuilt[0][ActionIDs.overflow] == 7)
        }
    }

    @Test(arguments: StoreKind.allCases) func aRebuildFoldsAsIngestDid(_ kind: StoreKind) async throws {
        try await withStore(kind, nameBounds: Self.bounds) { store in
            try await store.register(PushRegistration(pushID: "a1", campaign: "spring", app: "com.example.a"))
            _ = try await store.ingest(Self.displays("a1", "a", count: 6) + Self.displays("orphan", "o", count: 5))
            let expected = try await Self.read(store)
            try await store.rebuildRollups()
            #expect(try await Self.read(store) == expected)
        }
    }

    /// A database that counted every name before the bounds existed keeps every one it counted: the migration
    /// admits them, so its reports read the same after it, and after a rebuild; only new names meet the bound.
    @Test(arguments: StoreKind.allCases) func theMigrationAdmitsEveryNameTheRollupsHold(_ kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            let wide = NameBounds(actions: 4, platforms: 100, versions: 100)
            let first = try await fresh.testStore(nameBounds: wide)
            try await first.register(PushRegistration(pushID: "a1", campaign: "spring", app: "com.example.a"))
            _ = try await first.ingest(Self.displays("a1", "a", count: 6) + Self.displays("orphan", "o", count: 5))
            #expect(try await first.prune(receivedBefore: MediaRollupTests.afterNow, batchSize: 100) == 19)
            _ = try await first.ingest(Self.displays("a1", "kept", count: 3))
            let expected = try await Self.read(first)
            #expect(expected[2].count == 17)  // six, five and three own platforms, and the standard three
            try await undoMigration(
                first, kind: kind, dropping: ["dimension_values"], sqlite: DimensionValueMigration.sqliteIdentifier,
                postgres: DimensionValueMigration.postgresVersion)
            let migrated = try await fresh.testStore(nameBounds: Self.bounds)
            defer { migrated.closeInBackground() }
            #expect(try await Self.read(migrated) == expected)
            let admitted = try await migrated.integers(
                "SELECT COUNT(*) FROM dimension_values WHERE app = 'com.example.a' GROUP BY dimension ORDER BY dimension")
            #expect(admitted == [9, 7, 9])
            try await migrated.rebuildRollups()
            #expect(try await Self.read(migrated) == expected)
            _ = try await migrated.ingest(Self.single("a1", "new"))
            let after = try await Self.counts(migrated, .platform)
            #expect(after[ActionIDs.overflow] == (expected[2][ActionIDs.overflow] ?? 0) + 1)
        }
    }

    /// A name that overflowed under one bound is admitted by the next receipt once the bound is raised; a
    /// rollup rebuild then counts its earlier receipts under it too, and names admitted before stay admitted.
    @Test(arguments: StoreKind.allCases) func aRaisedBoundAndARebuildGiveNewNamesTheirRows(_ kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            do {
                let store = try await fresh.testStore(nameBounds: Self.bounds)
                defer { store.closeInBackground() }
                try await store.register(PushRegistration(pushID: "a1", campaign: "spring", app: "com.example.a"))
                _ = try await store.ingest(Self.displays("a1", "a", count: 4))
                #expect(try await Self.counts(store, .platform)["a-tv-2"] == nil)
            }
            let raised = try await fresh.testStore(nameBounds: NameBounds(actions: 4, platforms: 3, versions: 3))
            defer { raised.closeInBackground() }
            _ = try await raised.ingest(Self.single("a1", "a-tv-2"))
            let live = try await Self.counts(raised, .platform)
            #expect(live["a-tv-0"] == 1 && live["a-tv-1"] == 1 && live["a-tv-2"] == 1 && live["a-tv-3"] == nil)
            try await raised.rebuildRollups()
            let rebuilt = try await Self.counts(raised, .platform)
            #expect(rebuilt["a-tv-0"] == 1 && rebuilt["a-tv-1"] == 1 && rebuilt["a-tv-2"] == 2 && rebuilt["a-tv-3"] == nil)
            #expect(rebuilt.values.reduce(0, +) == live.values.reduce(0, +))
        }
    }
}
