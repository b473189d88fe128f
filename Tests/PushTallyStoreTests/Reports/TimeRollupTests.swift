import Foundation
import GRDB
import PushTallySQLite
import PushTallyStores
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

/// The series over every push reads `rollup_time` (a row per bucket), not the per-push bucket rows: it must
/// say what a recount of the raw events says, through pruning (the ledger twin) and rebuilds.
@Suite struct TimeRollupTests {
    /// Bucket counts in one order, for exact comparison.
    func sorted(_ counts: [BucketCount]) -> [BucketCount] {
        counts.sorted { ($0.bucket, $0.kind.rawValue, $0.action) < ($1.bucket, $1.kind.rawValue, $1.action) }
    }

    /// Every raw event counted into its 15-minute bucket.
    func recount(_ store: any TestStore) async throws -> [BucketCount] {
        var counts: [BucketCount: EventCount] = [:]
        for row in try await store.textRows("SELECT event_time, kind, action, duplicate FROM events") {
            let kind = EventKind(rawValue: Int(row[1]!)!)!
            guard kind.namesPush else { continue }
            let key = BucketCount(bucket: EventTime.bucket(ofMillis: Int64(row[0]!)!), kind: kind, action: row[2]!, count: EventCount())
            counts[key, default: EventCount()].add(EventCount(total: 1, duplicates: row[3] == "1" ? 1 : 0))
        }
        return sorted(counts.map { key, count in BucketCount(bucket: key.bucket, kind: key.kind, action: key.action, count: count) })
    }

    /// The per-push bucket rollup, summed over pushes by asking for each push's own counts.
    func perPushSums(_ store: any TestStore) async throws -> [BucketCount] {
        var counts: [BucketCount: EventCount] = [:]
        for pushID in try await store.column("SELECT DISTINCT push_id FROM rollup_bucket").compactMap({ $0 }) {
            for count in try await store.bucketCounts(ReportFilter(pushID: pushID)) {
                counts[BucketCount(bucket: count.bucket, kind: count.kind, action: count.action, count: EventCount()), default: EventCount()]
                    .add(count.count)
            }
        }
        return sorted(counts.map { key, count in BucketCount(bucket: key.bucket, kind: key.kind, action: key.action, count: count) })
    }

    @Test(arguments: StoreKind.allCases) func theSeriesOverEveryPushEqualsARecountFromRawEvents(kind: StoreKind) async throws {
        let clock = TestClock(1_795_305_600_000)
        try await withStore(kind, clock: clock.function) { store in
            try await LifecycleTests().load(store, clock: clock, seed: 11)
            let expected = try await recount(store)
            #expect(expected.count > 20, "the stream spreads over many buckets")
            #expect(sorted(try await store.bucketCounts(ReportFilter())) == expected)
            #expect(try await perPushSums(store) == expected)
            // A range narrows by bucket, as the per-push rows do.
            let from = clock.now - 4 * 86_400_000, to = clock.now - 2 * 86_400_000
            let inRange = expected.filter { $0.bucket >= EventTime.bucket(ofMillis: from) && $0.bucket <= EventTime.bucket(ofMillis: to - 1) }
            #expect(!inRange.isEmpty)
            #expect(sorted(try await store.bucketCounts(ReportFilter(fromMillis: from, toMillis: to))) == inRange)

            // Pruned events live on in the ledger twin; a rebuild is ledger + raw events.
            #expect(try await store.prune(receivedBefore: clock.now - 5 * 86_400_000, batchSize: 50) > 0)
            #expect(sorted(try await store.bucketCounts(ReportFilter())) == expected)
            #expect(try await store.integers("SELECT count(*) FROM ledger_time") != [0])
            try await store.rebuildRollups()
            #expect(sorted(try await store.bucketCounts(ReportFilter())) == expected)
            #expect(try await perPushSums(store) == expected)
        }
    }

    /// A database from before the series rollup gets it filled from its bucket rows, live and ledger.
    @Test func theMigrationFillsTheSeriesRollupFromBucketRows() async throws {
        try await FreshStore.with(.sqlite, name: "v9") { fresh in
            let path = fresh.sqlitePath
            let old = try DatabaseQueue(path: path)
            try Migrations.migrator.migrate(old, upTo: "v9-collapse-index")
            try await old.write { db in
                try db.execute(sql: """
                    INSERT INTO rollup_bucket VALUES ('p1', 100, 0, '', 3, 1), ('p2', 100, 0, '', 2, 0), ('p1', 101, 1, 'open', 1, 0);
                    INSERT INTO ledger_bucket VALUES ('p1', 100, 0, '', 4, 2), ('p2', 100, 0, '', 1, 0);
                    """)
            }
            try old.close()
            let store = try SQLiteStore(path: path, commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            #expect(try await store.textRows("SELECT * FROM rollup_time ORDER BY bucket") == [["100", "0", "", "5", "1"], ["101", "1", "open", "1", "0"]])
            #expect(try await store.textRows("SELECT * FROM ledger_time") == [["100", "0", "", "5", "2"]])
        }
    }

    @Test func onlyASeriesOverEveryPushReadsTheSeriesRollup() {
        #expect(RollupScope(ReportFilter(), bucketRange: true).bucketTable == "rollup_time")
        #expect(RollupScope(ReportFilter(fromMillis: 0, toMillis: 1), bucketRange: true).bucketTable == "rollup_time")
        for filter in [ReportFilter(campaign: "c"), ReportFilter(pushID: "p"), ReportFilter(app: "a"), ReportFilter(environment: "sandbox")] {
            #expect(RollupScope(filter, bucketRange: true).bucketTable == "rollup_bucket")
        }
    }
}
