import Foundation
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// Live rollup rows on PostgreSQL keyed by their events' day of receipt, so retention folds a dropped day from
/// its rows: the ledger gets exactly those rows, reports do not move, and a rebuild (the raw events recounted
/// plus the ledger) equals the rollups for every table, whichever way each day was folded.
@Suite struct DatedRollupTests {
    let partitions = PartitionTests()
    let lifecycle = LifecycleTests()
    static let (start, day) = (PartitionTests.start, PartitionTests.day)
    static let timingSum = TimingColumns.names.joined(separator: " + ")

    /// A store loaded over ten days (sessions and conversions credited, pushes registered late, media), every
    /// day in its partition.
    func loaded(_ url: String, secret: String, clock: TestClock, seed: UInt64 = 7) async throws -> PostgresStore {
        let store = try await partitions.open(url, clock: clock, secret: secret)
        try await partitions.outcomes(store)
        try await lifecycle.load(store, clock: clock, seed: seed)
        try await store.ensurePartitions(days: EventPartitions.day(ofMillis: Self.start)...EventPartitions.day(ofMillis: clock.now))
        return store
    }

    /// Each rollup table's counts in the given days' rows, summed over keys.
    func datedTotals(_ store: PostgresStore, days: Range<Int64>) async throws -> [String] {
        let (lower, upper) = (DatedShards.range(day: days.lowerBound).lower, DatedShards.range(day: days.upperBound).lower)
        return [
            try await store.textRows("SELECT SUM(total), SUM(duplicates), SUM(late) FROM rollup_push WHERE shard >= \(lower) AND shard < \(upper)"),
            try await store.textRows("SELECT SUM(count), SUM(value_micros) FROM rollup_outcome WHERE shard >= \(lower) AND shard < \(upper)"),
            try await store.textRows("SELECT SUM(\(Self.timingSum)) FROM rollup_timing WHERE shard >= \(lower) AND shard < \(upper)"),
        ].map { "\($0)" }
    }

    func ledgerTotals(_ store: PostgresStore) async throws -> [String] {
        [
            try await store.textRows("SELECT SUM(total), SUM(duplicates), SUM(late) FROM ledger_push"),
            try await store.textRows("SELECT SUM(count), SUM(value_micros) FROM ledger_outcome"),
            try await store.textRows("SELECT SUM(\(Self.timingSum)) FROM ledger_timing"),
        ].map { "\($0)" }
    }

    func datedRows(_ store: PostgresStore, before day: Int64) async throws -> [Int64] {
        try await store.integers(
            "SELECT count(*) FROM rollup_push WHERE shard >= \(DatedShards.collectorShards) AND shard < \(DatedShards.of(day: day, shard: 0))")
    }

    @Test func aDroppedDayFoldsFromItsRollupRowsIntoTheLedger() async throws {
        try await partitions.withDatabase { url, secret in
            let clock = TestClock(Self.start)
            let store = try await loaded(url, secret: secret, clock: clock)
            defer { store.closeInBackground() }
            let incremental = try await partitions.snapshot(store)
            let before = try await partitions.everything(store).reports
            let first = EventPartitions.day(ofMillis: Self.start)
            let expected = try await datedTotals(store, days: first..<(first + 3))
            #expect(try await store.integers("SELECT count(*) FROM undated_days") == [0])

            // Three whole days, cut at midnight: no day is pruned row by row.
            let cutoff = (first + 3) * Self.day
            let due = try await store.integers("SELECT count(*) FROM events WHERE received_at < \(cutoff)")
            #expect(try await store.prune(receivedBefore: cutoff) == Int(due[0]))
            #expect(try await ledgerTotals(store) == expected, "the ledger holds exactly the dropped days' rows")
            #expect(try await datedRows(store, before: first + 3) == [0], "the dropped days' rows moved to the plain shards")
            #expect(try await partitions.everything(store).reports == before, "a prune changed a report")
            try await store.rebuildRollups()
            #expect(try await partitions.snapshot(store) == incremental, "the ledger plus a recount differs from the rollups")
        }
    }

    @Test func aDayPrunedPartlyRowByRowFoldsFromItsEventsWhenDropped() async throws {
        try await partitions.withDatabase { url, secret in
            let clock = TestClock(Self.start)
            let store = try await loaded(url, secret: secret, clock: clock, seed: 11)
            defer { store.closeInBackground() }
            let incremental = try await partitions.snapshot(store)
            let before = try await partitions.everything(store).reports
            let first = EventPartitions.day(ofMillis: Self.start)
            let straddled = first + 3
            // Just after the day's commit (each load day commits at noon): its events go row by row, its partition stays.
            _ = try await store.prune(receivedBefore: straddled * Self.day + Self.day / 2 + 1, batchSize: 9)
            #expect(try await partitions.dayPartitions(store).first == EventPartitions.name(ofDay: straddled))
            #expect(try await store.integers("SELECT day FROM undated_days") == [straddled])
            #expect(try await partitions.everything(store).reports == before)
            // The straddling day goes whole with the next two: its rest is counted from its events.
            _ = try await store.prune(receivedBefore: (first + 6) * Self.day)
            #expect(try await store.integers("SELECT count(*) FROM events WHERE received_at < \((first + 6) * Self.day)") == [0])
            #expect(try await partitions.everything(store).reports == before)
            try await store.rebuildRollups()
            #expect(try await partitions.snapshot(store) == incremental)
            #expect(try await store.integers("SELECT count(*) FROM undated_days") == [0], "a rebuild dates every day again")
        }
    }

    @Test func daysCountedBeforeDatingFoldFromTheirEvents() async throws {
        try await partitions.withDatabase { url, secret in
            let clock = TestClock(Self.start)
            let old = try await partitions.open(
                url, clock: clock, limits: PostgresSchema.Limits(skipping: [DatedShards.version]), secret: secret)
            try await partitions.outcomes(old)
            try await lifecycle.load(old, clock: clock, seed: 5)
            try await old.ensurePartitions(days: EventPartitions.day(ofMillis: Self.start)...EventPartitions.day(ofMillis: clock.now))
            await old.shutdown()
            let store = try await partitions.open(url, clock: clock, secret: secret)
            defer { store.closeInBackground() }
            // Dated only from the day after the last one stored: every loaded day folds from its events.
            let datedFrom = try await store.integers("SELECT value::bigint FROM meta WHERE key = '\(DatedShards.datedFromKey)'")
            let last = try await store.integers("SELECT max(received_at) FROM events")
            #expect(datedFrom.first ?? .min > EventPartitions.day(ofMillis: last[0]))
            let incremental = try await partitions.snapshot(store)
            let before = try await partitions.everything(store).reports
            let first = EventPartitions.day(ofMillis: Self.start)
            _ = try await store.prune(receivedBefore: (first + 4) * Self.day)
            #expect(try await partitions.everything(store).reports == before)
            try await store.rebuildRollups()
            #expect(try await partitions.snapshot(store) == incremental)
        }
    }

    @Test func twoCollectorsPruningAtOnceFoldEachDayOnce() async throws {
        try await partitions.withDatabase { url, secret in
            let clock = TestClock(Self.start)
            let store = try await loaded(url, secret: secret, clock: clock, seed: 3)
            defer { store.closeInBackground() }
            let other = try await partitions.open(url, clock: clock, secret: secret)
            defer { other.closeInBackground() }
            let incremental = try await partitions.snapshot(store)
            let before = try await partitions.everything(store).reports
            let cutoff = (EventPartitions.day(ofMillis: Self.start) + 5) * Self.day + Self.day / 3
            let due = try await store.integers("SELECT count(*) FROM events WHERE received_at < \(cutoff)")
            async let mine = store.prune(receivedBefore: cutoff, batchSize: 5)
            async let theirs = other.prune(receivedBefore: cutoff, batchSize: 5)
            #expect(try await mine + theirs == Int(due[0]))
            #expect(try await partitions.everything(other).reports == before)
            try await store.rebuildRollups()
            #expect(try await partitions.snapshot(store) == incremental)
        }
    }
}
