import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// The time series narrowed to one platform (`timeseries?platform=`): each 15-minute bucket's counts equal a
/// recount of the stored events of that platform in it (`unknown`: those that named none), through pruning
/// into the ledger, a rebuild, and the migration that fills the per-bucket platform rollup of a database
/// written before it was kept.
@Suite struct PlatformTimeseriesStoreTests {
    static let named = ["ios", "android", "web", "kaios"]

    /// The stored events recounted per platform (`unknown` when none was named) and bucket.
    static func recount(_ store: any TestStore) async throws -> [String: Set<BucketCount>] {
        var counts: [String: [BucketCount]] = [:]
        for row in try await store.textRows("SELECT event_time, kind, action, platform, duplicate FROM events") {
            let bucket = EventTime.bucket(ofMillis: Int64(row[0]!)!)
            let kind = EventKind(rawValue: Int(row[1]!)!)!
            let count = EventCount(total: 1, duplicates: row[4] == "1" ? 1 : 0)
            counts[row[3] ?? ReportGrouping.unknownPlatform, default: []].append(
                BucketCount(bucket: bucket, kind: kind, action: kind == .display ? "" : row[2]!, count: count))
        }
        return counts.mapValues(Self.summed)
    }

    /// Rows of one bucket, kind and action added up.
    static func summed(_ rows: [BucketCount]) -> Set<BucketCount> {
        var sums: [BucketCount: EventCount] = [:]
        for row in rows {
            var key = row
            key.count = EventCount()
            sums[key, default: EventCount()].total += row.count.total
            sums[key, default: EventCount()].duplicates += row.count.duplicates
        }
        return Set(sums.map { key, count in
            var row = key
            row.count = count
            return row
        })
    }

    /// Every platform's buckets as the store reports them.
    static func reported(_ store: any TestStore, filter: ReportFilter = ReportFilter()) async throws -> [String: Set<BucketCount>] {
        var reported: [String: Set<BucketCount>] = [:]
        for platform in named + [ReportGrouping.unknownPlatform, "tizen"] {
            var narrowed = filter
            narrowed.platform = platform
            let counts = Set(try await store.bucketCounts(narrowed))
            if !counts.isEmpty { reported[platform] = counts }
        }
        return reported
    }

    static func events(_ prefix: String) -> [IncomingEvent] {
        PushPlatformStoreTests.events(now: StoreConfiguration.systemClock()).map { event in
            var event = event
            event.receiptID = event.receiptID.map { "\(prefix)-\($0)" }
            return event
        }
    }

    @Test(arguments: StoreKind.allCases) func bucketsByPlatformEqualARecountThroughPruneAndRebuild(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await PushPlatformStoreTests.register(store)
            _ = try await store.ingest(Self.events("a"))
            let expected = try await Self.recount(store)
            #expect(Set(expected.keys) == Set(Self.named + [ReportGrouping.unknownPlatform]))
            #expect(expected.values.contains { Set($0.map(\.bucket)).count > 1 }, "events fall in several buckets")
            #expect(try await Self.reported(store) == expected)
            // The platforms add up to every event of each bucket.
            let whole = Set(try await store.bucketCounts(ReportFilter()))
            #expect(Self.summed(expected.values.flatMap { $0 }) == whole)
            // Narrowed to a campaign, and rendered: the day's displays are the platform's.
            let sale = try await Self.reported(store, filter: ReportFilter(campaign: "sale"))
            let campaignEvents = try await store.textRows(
                "SELECT COUNT(*) FROM events WHERE platform = 'web' AND kind = 0 AND push_id IN ('p-1', 'p-2')")
            #expect(sale["web"].map { $0.filter { $0.kind == .display }.reduce(Int64(0)) { $0 + $1.count.total } }
                == Int64(campaignEvents[0][0]!))
            let table = try await store.report(ReportRequest(
                .timeseries(TimeseriesOptions(width: .day)), filter: ReportFilter(platform: "web")))
            let displayed = table.values(of: "displayed").reduce(Int64(0)) { sum, value in
                if case .integer(let count)? = value { return sum + count }
                return sum
            }
            #expect(displayed == expected["web"]!.filter { $0.kind == .display }.reduce(Int64(0)) { $0 + $1.count.total })

            #expect(try await store.prune(receivedBefore: StoreConfiguration.systemClock() + 86_400_000, batchSize: 11) > 0)
            #expect(try await Self.reported(store) == expected, "pruned events keep their platform and bucket in the ledger")
            try await store.rebuildRollups()
            #expect(try await Self.reported(store) == expected, "a rebuild keeps them")
        }
    }

    /// A database written before the per-bucket platform rollup gets its rows from the raw events it still
    /// holds; events pruned before then were kept with no platform, so they count as `unknown`.
    @Test(arguments: StoreKind.allCases) func theMigrationFillsPlatformBucketsFromRawEvents(kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            let first = try await fresh.testStore()
            try await PushPlatformStoreTests.register(first)
            _ = try await first.ingest(Self.events("old"))
            let pruned = try await Self.recount(first)
            #expect(try await first.prune(receivedBefore: StoreConfiguration.systemClock() + 86_400_000, batchSize: 50) > 0)
            _ = try await first.ingest(Self.events("new"))
            let stored = try await Self.recount(first)
            let whole = Set(try await first.bucketCounts(ReportFilter()))
            var expected = stored
            expected[ReportGrouping.unknownPlatform] = Self.summed(
                Array(stored[ReportGrouping.unknownPlatform] ?? []) + pruned.values.flatMap { $0 })
            #expect(Self.summed(expected.values.flatMap { $0 }) == whole)

            // Back to the schema before the per-bucket platform rollup, its ledger rows lost with it.
            let tables = [RollupTarget.rollups.platformBucket, RollupTarget.ledger.platformBucket]
            try await undoMigration(first, kind: kind, dropping: tables, sqlite: "v16-platform-buckets", postgres: 15)
            let migrated = try await fresh.testStore()
            defer { migrated.closeInBackground() }
            #expect(try await Self.reported(migrated) == expected)
            try await migrated.rebuildRollups()
            #expect(try await Self.reported(migrated) == expected)
        }
    }
}
