import Foundation
import GRDB
import PushTallySQLite
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

/// Media outcomes and extension times in the rollups on each store: they equal a recount of the stored
/// receipts (through retries, pruning and rebuilds), and the migration that adds them fills them from what a
/// database already holds.
@Suite struct MediaRollupTests {
    /// A cutoff past every event stored so far: a prune before it takes them all.
    static var afterNow: Int64 { Int64(Date().timeIntervalSince1970 * 1000) + 60_000 }

    /// The unique displays' media per push, and per named app and OS version, recounted from raw events.
    struct Recount: Equatable {
        var pushes: [String: MediaOutcomes] = [:]
        var versions: [VersionDimension: [String: MediaOutcomes]] = [:]

        mutating func add(pushID: String, media: ReceiptMedia?, millis: Int64?, app: String?, os: String?) {
            pushes[pushID, default: MediaOutcomes()].add(media, extensionMillis: millis)
            for (dimension, version) in [(VersionDimension.appVersion, app), (.osVersion, os)] {
                versions[dimension, default: [:]][version ?? "", default: MediaOutcomes()].add(media, extensionMillis: millis)
            }
        }
    }

    static func recount(_ store: any TestStore) async throws -> Recount {
        var recount = Recount()
        for row in try await store.textRows(
            "SELECT push_id, media, extension_ms, app_version, os_version, duplicate FROM events WHERE kind = 0")
        where row[5] == "0" {
            recount.add(
                pushID: row[0]!, media: row[1].flatMap(ReceiptMedia.init(rawValue:)), millis: row[2].flatMap { Int64($0) },
                app: row[3], os: row[4])
        }
        return recount
    }

    /// What the reports read: each push's media, and each version's.
    static func read(_ store: any TestStore) async throws -> Recount {
        var read = Recount()
        for push in try await store.pushFigures() where !push.funnel.media.isEmpty { read.pushes[push.pushID] = push.funnel.media }
        for dimension in [VersionDimension.appVersion, .osVersion] {
            read.versions[dimension] = try await store.versionMedia(ReportFilter(), dimension: dimension)
        }
        return read
    }

    /// A stream of displays with every outcome, unknown ones, retries that say something else, and taps.
    static func stream(seed: UInt64, prefix: String) -> [IncomingEvent] {
        var rng = SplitMix64(state: seed)
        var events: [IncomingEvent] = []
        for index in 0..<300 {
            var event = IncomingEvent(
                pushID: "p\(Int.random(in: 0..<4, using: &rng))", kind: .display,
                receiptID: "\(prefix)\(Int.random(in: 0..<240, using: &rng))", deviceTimeMillis: nil,
                appVersion: ["3.0", "3.1", nil].randomElement(using: &rng)!, osVersion: ["18.0", nil].randomElement(using: &rng)!)
            event.media = [.attached, .failed, .timedOut, ReceiptMedia.none, nil].randomElement(using: &rng)!
            event.extensionMillis = Bool.random(using: &rng) ? Int64.random(in: 0...ExtensionTime.maximumMillis, using: &rng) : nil
            if index % 7 == 0 {
                event.kind = .action
                event.action = "open"
            }
            events.append(event)
        }
        return events
    }

    @Test(arguments: StoreKind.allCases) func reportsEqualARecountThroughRetriesPruningAndRebuilds(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let events = Self.stream(seed: 5, prefix: "r")
            for chunk in stride(from: 0, to: events.count, by: 40) {
                _ = try await store.ingest(Array(events[chunk..<min(chunk + 40, events.count)]))
            }
            let expected = try await Self.recount(store)
            #expect(try await store.integers("SELECT count(*) FROM events WHERE duplicate = \(kind == .sqlite ? "1" : "true")") != [0])
            #expect(expected.pushes.values.contains { $0.unknown > 0 && $0.none > 0 && $0.timedOut > 0 })
            #expect(try await Self.read(store) == expected)
            let buckets = try await store.integers("SELECT CAST(SUM(media_attached + media_failed + media_timed_out + media_none + media_unknown) AS BIGINT) FROM rollup_media_bucket")
            #expect(buckets == [expected.pushes.values.reduce(0) { $0 + $1.counts.reduce(0, +) }])

            // Pruned receipts live on in the ledger; a rebuild is ledger + raw events.
            #expect(try await store.prune(receivedBefore: Self.afterNow, batchSize: 70) == events.count)
            #expect(try await Self.read(store) == expected)
            try await store.rebuildRollups()
            #expect(try await Self.read(store) == expected)
        }
    }

    /// A display that says nothing of its media is in no count, and leaves no media row behind (not even one
    /// of zeros): receipts of the classic `push_id` form cost a commit no media upsert.
    @Test(arguments: StoreKind.allCases) func aRetriedReceiptCountsOnceAndASilentOneInNoCount(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            func display(_ receipt: String, _ media: ReceiptMedia?, _ millis: Int64?) -> IncomingEvent {
                var event = IncomingEvent(pushID: "p1", kind: .display, receiptID: receipt)
                (event.media, event.extensionMillis) = (media, millis)
                return event
            }
            _ = try await store.ingest([display("a", .attached, 900), display("a", .timedOut, 30_000), display("b", nil, nil)])
            _ = try await store.ingest([display("a", .failed, 100), display("c", ReceiptMedia.none, 20)])
            let media = try #require(try await store.pushFigures().first?.funnel.media)
            #expect(media.counts == [1, 0, 0, 1, 0])
            #expect(media.richRate == 1 && media.extensionTime.total == 2)
            _ = try await store.ingest([display("d", nil, 40)])
            #expect(try #require(try await store.pushFigures().first?.funnel.media).counts == [1, 0, 0, 1, 1])

            var silent = IncomingEvent(pushID: "p2", kind: .display, receiptID: "e")
            silent.appVersion = "3.0"
            _ = try await store.ingest([silent])
            for table in ["rollup_media", "rollup_media_bucket", "rollup_media_version"] {
                #expect(try await store.integers("SELECT count(*) FROM \(table) WHERE push_id = 'p2'") == [0], "\(table)")
            }
            #expect(try await store.pushFigures().first { $0.pushID == "p2" }?.funnel.displayed == 1)
        }
    }

    /// A database from before the media rollups: its pruned displays are in no count (their media is gone),
    /// its stored ones count by what they said, and a rebuild agrees.
    @Test(arguments: StoreKind.allCases) func theMigrationFillsTheMediaRollups(kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            let first = try await fresh.testStore()
            let old = Self.stream(seed: 8, prefix: "old")
            _ = try await first.ingest(old)
            #expect(try await first.prune(receivedBefore: Self.afterNow, batchSize: MaintenancePlan.batchSize) == old.count)
            _ = try await first.ingest(Self.stream(seed: 9, prefix: "new"))
            let expected = try await Self.recount(first)
            // Back to the schema before the media rollups.
            let tables = (RollupTarget.rollups.tables + RollupTarget.ledger.tables).filter { $0.contains("media") }
            #expect(tables.count == 6)
            try await undoMigration(first, kind: kind, dropping: tables, sqlite: "v13-media-rollups", postgres: 11)
            let migrated = try await fresh.testStore()
            defer { migrated.closeInBackground() }
            #expect(try await Self.read(migrated) == expected)
            try await migrated.rebuildRollups()
            #expect(try await Self.read(migrated) == expected)
        }
    }
}
