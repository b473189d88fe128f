import Foundation
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// Raw events on PostgreSQL partitioned by day of receipt: retention dropping whole days, times far from the
/// clock, days created after their events, and the in-place migration of an unpartitioned database.
@Suite struct PartitionTests {
    static let day: Int64 = 86_400_000
    /// Noon UTC, so the loads below fall on whole days.
    static let start: Int64 = 1_795_348_800_000
    let lifecycle = LifecycleTests()

    func open(
        _ url: String, clock: TestClock, limits: PostgresSchema.Limits = PostgresSchema.Limits(), secret: String
    ) async throws -> PostgresStore {
        try await PostgresStore(
            url: url, configuration: StoreConfiguration(clock: clock.function), deviceSecretPath: secret,
            maximumConnections: 4, migrationLimits: limits)
    }

    func withDatabase(_ body: (String, String) async throws -> Void) async throws {
        try await FreshStore.with(.postgres) { fresh in try await body(fresh.database, fresh.secretPath) }
    }

    /// Each stored row's partition, with its receive time.
    func placement(_ store: PostgresStore) async throws -> [[String?]] {
        try await store.textRows("SELECT tableoid::regclass::text, received_at FROM events ORDER BY id")
    }

    func dayPartitions(_ store: PostgresStore) async throws -> [String] {
        try await store.textRows(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass ORDER BY 1"
        ).compactMap { $0.first ?? nil }.filter { $0 != EventPartitions.defaultPartition }
    }

    /// Every report kind over the pushes and campaigns the loads write, and the whole export.
    func everything(_ store: PostgresStore) async throws -> (reports: [ReportTable], export: [ExportedEvent]) {
        var reports = try await lifecycle.reports(store)
        var kinds: [any ReportKind] = [AttributionReportKind()]
        kinds += (0..<8).map { PushReportKind(pushID: "p\($0)") }
        kinds += ["c0", "c1"].flatMap { [CampaignReportKind(campaign: $0), VariantsReportKind(campaign: $0, control: nil)] as [any ReportKind] }
        kinds += VersionDimension.allCases.map { VersionsReportKind(dimension: $0) }
        for kind in kinds { reports.append(try await store.report(ReportRequest(ReportSubject(kind)))) }
        let exported = ExportBox()
        _ = try await store.exportEvents(sinceMillis: nil, untilMillis: nil) { exported.append($0) }
        return (reports, exported.events)
    }

    /// Sessions and conversions on the first day, credited to displays of theirs, one retried, one without a value.
    func outcomes(_ store: PostgresStore) async throws {
        _ = try await store.ingest((0..<4).map { receipt("p1", device: "s\($0)", receipt: "sr\($0)") })
        var events = (0..<4).map { IncomingEvent.session(deviceID: "s\($0)", sessionID: "session\($0)") }
        events.append(IncomingEvent.session(deviceID: "s0", sessionID: "session0"))
        events.append(.conversion(deviceID: "s1", name: "buy", valueMicros: 4_990_000, currency: "EUR", conversionID: "c1"))
        events.append(.conversion(deviceID: "s2", name: "signup", conversionID: "c2"))
        events.append(.session(deviceID: "nobody", sessionID: "lonely"))
        _ = try await store.ingest(events)
    }

    /// The push rollups and the outcome rollups, summed by key.
    func snapshot(_ store: PostgresStore) async throws -> [String: [[String?]]] {
        var snapshot = try await lifecycle.rollupSnapshot(store)
        snapshot["rollup_outcome"] = try await store.textRows(
            "SELECT push_id, measure, currency, SUM(count)::bigint, SUM(value_micros)::bigint FROM rollup_outcome GROUP BY 1, 2, 3 ORDER BY 1, 2, 3")
        snapshot["rollup_outcome_time"] = try await store.textRows(
            "SELECT bucket, measure, currency, SUM(count)::bigint, SUM(value_micros)::bigint FROM rollup_outcome_time GROUP BY 1, 2, 3 ORDER BY 1, 2, 3")
        return snapshot
    }

    @Test func retentionDropsWholeDaysAndPrunesTheStraddlingOneRowByRow() async throws {
        try await withDatabase { url, secret in
            let clock = TestClock(Self.start)
            let store = try await open(url, clock: clock, secret: secret)
            defer { store.closeInBackground() }
            try await outcomes(store)
            try await lifecycle.load(store, clock: clock, seed: 7)
            // Every day the load reached, made as collectors make them ahead (any row that came first moves in).
            try await store.ensurePartitions(days: EventPartitions.day(ofMillis: Self.start)...EventPartitions.day(ofMillis: clock.now))
            let incremental = try await snapshot(store)
            let before = try await lifecycle.reports(store)
            let rows = try await placement(store)
            let inDefault = rows.filter { $0[0] == EventPartitions.defaultPartition }.count
            #expect(inDefault == 0, "every row in its day's partition")

            // Half a day into the fourth day: three whole days go, the fourth is cut in two.
            let cutoff = Self.start + 3 * Self.day + Self.day / 2
            let cutDay = EventPartitions.day(ofMillis: cutoff)
            let partitionsBefore = try await dayPartitions(store)
            let due = rows.filter { (Int64($0[1] ?? "") ?? .max) < cutoff }.count
            let kept = partitionsBefore.filter { $0 >= EventPartitions.name(ofDay: cutDay) }
            let pruned = try await store.prune(receivedBefore: cutoff, batchSize: 7)
            #expect(pruned == due)
            let partitionsAfter = try await dayPartitions(store)
            #expect(partitionsAfter == kept, "the days wholly before the cutoff are dropped, the straddling one kept")
            #expect(try await store.textRows("SELECT count(*) FROM retired_events") == [["0"]])
            #expect(try await store.textRows("SELECT count(*) FROM events WHERE received_at < \(cutoff)") == [["0"]])
            #expect(try await store.rawEventCount() == rows.count - due)
            #expect(try await lifecycle.reports(store) == before, "a prune changed a report")
            try await store.rebuildRollups()
            #expect(try await snapshot(store) == incremental, "the ledger plus a recount differs from the rollups")
        }
    }

    @Test func aRetiredDayFoldedPartWayIsFinishedByTheNextPrune() async throws {
        try await withDatabase { url, secret in
            let clock = TestClock(Self.start)
            let store = try await open(url, clock: clock, secret: secret)
            defer { store.closeInBackground() }
            try await lifecycle.load(store, clock: clock, seed: 99)
            try await store.ensurePartitions(days: EventPartitions.day(ofMillis: Self.start)...EventPartitions.day(ofMillis: clock.now))
            let incremental = try await lifecycle.rollupSnapshot(store)
            // A prune that stopped after detaching the first day and before folding any of it.
            let first = EventPartitions.name(ofDay: EventPartitions.day(ofMillis: Self.start))
            _ = try await store.textRows("ALTER TABLE events DETACH PARTITION \(first)")
            _ = try await store.textRows("INSERT INTO retired_events (name) VALUES ('\(first)') RETURNING 1")
            try await store.rebuildRollups()
            #expect(try await lifecycle.rollupSnapshot(store) == incremental, "a rebuild finishes the fold first")
            #expect(try await store.textRows("SELECT to_regclass('\(first)') IS NULL, count(*) FROM retired_events") == [["1", "0"]])
        }
    }

    /// The reports by push and campaign (a time series over centuries is refused as too many buckets).
    func pushReports(_ store: PostgresStore) async throws -> [ReportTable] {
        [try await store.report(ReportRequest(.campaigns)), try await store.report(ReportRequest(.pushes(orphan: nil)))]
    }

    @Test func eventTimesFarFromTheClockAreClampedAndStoredAnyway() async throws {
        try await withDatabase { url, secret in
            let clock = TestClock(Self.start)
            let store = try await open(url, clock: clock, secret: secret)
            defer { store.closeInBackground() }
            // Device clocks decades off: counted at receipt (the future) or a week before it (the past).
            _ = try await store.ingest([
                receipt("p0", device: "d1", ts: 0), receipt("p0", device: "d2", ts: Self.start + 80 * 365 * Self.day),
                receipt("p0", device: "d3", ts: -5 * 365 * Self.day),
            ])
            let times = try await store.textRows("SELECT event_time, tableoid::regclass::text FROM events ORDER BY id")
            #expect(times.map { $0[0] } == [Self.start - 7 * Self.day, Self.start, Self.start - 7 * Self.day].map { String($0) })
            #expect(Set(times.map { $0[1] }) == [EventPartitions.name(ofDay: EventPartitions.day(ofMillis: Self.start))])

            // Imported events keep the receive times they had, however far off: the default partition holds them.
            let far = [Int64(-20 * 365) * Self.day, Self.start + 300 * 365 * Self.day]
            let imported = far.enumerated().map { index, time in
                ExportedEvent(
                    StoredEvent(pushID: "p1", kind: .display, action: "", receivedAt: time, eventTime: time, duplicate: false,
                    appVersion: nil, osVersion: nil),
                    seq: Int64(index + 1))
            }
            #expect(try await store.importEvents(imported, source: "elsewhere") == 2)
            let placed = try await store.textRows(
                "SELECT tableoid::regclass::text FROM events WHERE push_id = 'p1' ORDER BY received_at")
            #expect(placed == [[EventPartitions.defaultPartition], [EventPartitions.defaultPartition]])
            let incremental = try await lifecycle.rollupSnapshot(store)
            let before = try await pushReports(store)
            // The far past is pruned row by row out of the default partition; the far future stays.
            #expect(try await store.prune(receivedBefore: Self.start - 30 * Self.day) == 1)
            #expect(try await store.integers("SELECT received_at FROM events WHERE push_id = 'p1'") == [far[1]])
            #expect(try await pushReports(store) == before)
            try await store.rebuildRollups()
            #expect(try await lifecycle.rollupSnapshot(store) == incremental)
        }
    }

    @Test func anEventOfADayWithoutPartitionLandsThenMovesWhenTheDayIsMade() async throws {
        try await withDatabase { url, secret in
            let clock = TestClock(Self.start)
            let store = try await open(url, clock: clock, secret: secret)
            defer { store.closeInBackground() }
            let later = Self.start + 40 * Self.day
            let laterDay = EventPartitions.name(ofDay: EventPartitions.day(ofMillis: later))
            #expect(try await !dayPartitions(store).contains(laterDay))
            let event = StoredEvent(pushID: "p2", kind: .display, action: "", receivedAt: later, eventTime: later, duplicate: false,
                appVersion: nil, osVersion: nil)
            #expect(try await store.importEvents([ExportedEvent(event, seq: 1)], source: "elsewhere") == 1)
            #expect(try await placement(store) == [[EventPartitions.defaultPartition, String(later)]])
            let before = try await lifecycle.reports(store)

            // Forty days on, a collector starting makes the day: the row moves into it, nothing else changes.
            clock.advance(seconds: 40 * 86_400)
            let second = try await open(url, clock: clock, secret: secret)
            defer { second.closeInBackground() }
            #expect(try await dayPartitions(second).contains(laterDay))
            #expect(try await placement(second) == [[laterDay, String(later)]])
            #expect(try await lifecycle.reports(second) == before)
            _ = try await second.ingest([receipt("p2", device: "d9")])
            #expect(try await placement(second).map { $0[0] } == [laterDay, laterDay])
        }
    }

    /// A database of every migration but partitioning, filled and pruned once, then migrated by opening it.
    func migrated(interruptAfterBatches: Int?) async throws {
        try await withDatabase { url, secret in
            let clock = TestClock(Self.start)
            let old = try await open(url, clock: clock, limits: PostgresSchema.Limits(skipping: [PartitionMigration.version]), secret: secret)
            #expect(try await old.textRows("SELECT relkind::text FROM pg_class WHERE relname = 'events'") == [["r"]])
            try await lifecycle.load(old, clock: clock, seed: 7)
            _ = try await old.prune(receivedBefore: Self.start + Self.day, batchSize: 50)
            let before = try await everything(old)
            let snapshot = try await lifecycle.rollupSnapshot(old)
            let count = try await old.rawEventCount()
            await old.shutdown()

            if let interruptAfterBatches {
                await #expect(throws: (any Error).self) {
                    _ = try await open(
                        url, clock: clock,
                        limits: PostgresSchema.Limits(partitionBatchSize: 100, interruptAfterBatches: interruptAfterBatches),
                        secret: secret)
                }
            }
            let store = try await open(url, clock: clock, limits: PostgresSchema.Limits(partitionBatchSize: 100), secret: secret)
            defer { store.closeInBackground() }
            #expect(try await store.textRows("SELECT relkind::text FROM pg_class WHERE relname = 'events'") == [["p"]])
            #expect(try await store.textRows("SELECT to_regclass('events_unpartitioned') IS NULL") == [["1"]])
            #expect(try await store.integers("SELECT version FROM pushtally_migrations WHERE version = 14") == [14])
            #expect(try await store.rawEventCount() == count)
            let placed = try await placement(store).filter { $0[0] == EventPartitions.defaultPartition }
            #expect(placed.isEmpty)
            let after = try await everything(store)
            #expect(after.reports == before.reports, "a report changed with the migration")
            #expect(after.export == before.export, "the export changed with the migration")
            #expect(try await lifecycle.rollupSnapshot(store) == snapshot)
            // New events take ids after the old ones, and a rebuild still equals the rollups.
            _ = try await store.ingest([receipt("p0", device: "new")])
            let ids = try await store.integers("SELECT id FROM events ORDER BY id")
            #expect(ids.last! > before.export.map(\.seq).max()!)
            let withNew = try await lifecycle.rollupSnapshot(store)
            try await store.rebuildRollups()
            #expect(try await lifecycle.rollupSnapshot(store) == withNew)
        }
    }

    @Test func anUnpartitionedDatabaseIsMigratedInPlaceWithEqualReports() async throws {
        try await migrated(interruptAfterBatches: nil)
    }

    @Test func aMigrationInterruptedPartWayFinishesWhenRunAgain() async throws {
        try await migrated(interruptAfterBatches: 2)
    }
}

/// Collects an export's events (the export calls back from the store's connection).
private final class ExportBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [ExportedEvent] = []

    func append(_ event: ExportedEvent) {
        lock.lock()
        stored.append(event)
        lock.unlock()
    }

    var events: [ExportedEvent] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
