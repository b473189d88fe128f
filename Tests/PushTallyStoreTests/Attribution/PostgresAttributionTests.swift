import Foundation
import PushTallyCore
import PushTallyPostgres
import PushTallySQLite
import PushTallyStores
import PushTallyTestSupport
import Testing

/// What only PostgreSQL has to get right about attribution: collectors committing one device's events at
/// once, and `migrate-store` carrying credits and outcome rollups over.
extension AttributionStoreTests {
    /// Stored credits, by event, as text for comparison.
    func credits(_ store: any TestStore) async throws -> [[String?]] {
        try await store.textRows(
            "SELECT device_id, receipt_id, event_time, attribution, attributed_push FROM events WHERE kind >= 2")
            .sorted { $0.map { $0 ?? "" }.lexicographicallyPrecedes($1.map { $0 ?? "" }) }
    }

    /// Two collectors, two writers each, commit displays, taps, sessions and conversions of the same two
    /// devices at once, in shuffled time order: every credit and figure must equal what a rebuild re-derives
    /// from the raw events afterwards.
    @Test func collectorsRacingOnOneDeviceStayExact() async throws {
        try await FreshStore.with(.postgres) { fresh in
            try await fresh.withTwoCollectors(writers: 2) { first, second in
                let now = StoreConfiguration.systemClock()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, store) in [first, second, first, second].enumerated() {
                        group.addTask {
                            var rng = SplitMix64(state: UInt64(index + 1))
                            for round in 0..<25 {
                                let events = (0..<4).map { slot in
                                    Self.randomEvent(&rng, now: now, id: "\(index)-\(round)-\(slot)")
                                }
                                _ = try await store.ingest(events)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let raced = try await snapshot(first)
                let stored = try await credits(first)
                #expect((raced[""]?.sessions ?? 0) > 20)
                try await second.rebuildRollups()
                #expect(try await credits(first) == stored, "every credit ingest stored is the one the rules give")
                #expect(try await snapshot(second) == raced)
            }
        }
    }

    /// A commit of more devices than the lock table would hold per device takes the lock over all devices
    /// instead, and still excludes the small commits racing it on the same devices.
    @Test func aCommitOfManyDevicesLocksThemAllAtOnce() async throws {
        try await FreshStore.with(.postgres) { fresh in
            // One commit of 20,000 devices is what this test is about; the commit timeout bounds a database that
            // stopped answering (tested elsewhere), and a debug build on a crowded machine may take longer than
            // a production default to write that much.
            try await fresh.withTwoCollectors { first, second in
                let now = StoreConfiguration.systemClock()
                // More devices than PostgreSQL's default lock table (64 × 100 connections, with its slack) holds.
                let crowd = (0..<20_000).map { IncomingEvent(pushID: "p0", kind: .display, deviceID: "d\($0)", deviceTimeMillis: now - 3_600_000) }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { _ = try await first.ingest(crowd) }
                    group.addTask {
                        for index in 0..<20 {
                            _ = try await second.ingest([.session(deviceID: "d\(index)", sessionID: "s", deviceTimeMillis: now - 60_000)])
                        }
                    }
                    try await group.waitForAll()
                }
                let totals = try await first.outcomeTotals(fromMillis: nil, toMillis: nil)
                #expect((totals.influencedOpens, totals.sessions) == (20, 20), "each session sees the display committed beside it")
            }
        }
    }

    static func randomEvent(_ rng: inout SplitMix64, now: Int64, id: String) -> IncomingEvent {
        let device = ["d0", "d1"].randomElement(using: &rng)!
        let time = now - Int64.random(in: 0..<(3 * 60), using: &rng) * minute
        let push = "p\(Int.random(in: 0..<3, using: &rng))"
        switch Int.random(in: 0..<5, using: &rng) {
        case 0, 1: return IncomingEvent(pushID: push, kind: .display, deviceID: device, deviceTimeMillis: time)
        case 2: return IncomingEvent(pushID: push, kind: .action, action: "open", deviceID: device, deviceTimeMillis: time)
        case 3: return .session(deviceID: device, sessionID: id, deviceTimeMillis: time)
        default: return .conversion(deviceID: device, name: "buy", valueMicros: 1_000_000, currency: "USD", deviceTimeMillis: time)
        }
    }

    /// `migrate-store` copies the credits, the outcome rollups and their ledger: every figure reads the same.
    @Test func migrateStoreCopiesOutcomes() async throws {
        let clock = TestClock()
        try await withSQLiteStore(clock: clock.function) { sqlite in
            try await load(sqlite, clock: clock, days: 3)
            _ = try await sqlite.prune(receivedBefore: clock.now - 86_400_000)
            let expected = try await snapshot(sqlite)
            let stored = try await credits(sqlite)
            try await TestPostgres.withDatabase { url in
                let target = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
                defer { target.closeInBackground() }
                let migration = StoreMigration(from: sqlite, to: target)
                try await migration.copy { _, _, _ in }
                #expect(try await migration.verify().mismatches == [])
                #expect(try await snapshot(target) == expected)
                #expect(try await credits(target) == stored)
                #expect(try await target.integers("SELECT count(*) FROM ledger_outcome").first ?? 0 > 0)
                #expect(try await target.column("SELECT value FROM meta WHERE key = 'pruned_before'") == [String(clock.now - 86_400_000)])
            }
        }
    }
}
