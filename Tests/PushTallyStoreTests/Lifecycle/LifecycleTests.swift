import Foundation
import GRDB
import PushTallyPostgres
import PushTallySQLite
import PushTallyStores
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

@Suite struct LifecycleTests {
    /// Every rollup table's rows summed by key, sorted, for exact comparison.
    func rollupSnapshot(_ store: any TestStore) async throws -> [String: [[String?]]] {
        var snapshot: [String: [[String?]]] = [:]
        func sum(_ column: String) -> String { "CAST(SUM(\(column)) AS BIGINT)" }
        let timing = TimingColumns.names.map(sum).joined(separator: ", ")
        let media = RollupTable.media.values.map { sum($0.name) }.joined(separator: ", ")
        let mediaCounts = RollupTable.mediaBucket.values.map { sum($0.name) }.joined(separator: ", ")
        for (table, query) in [
            ("rollup_push", """
                SELECT push_id, kind, action, \(sum("total")), \(sum("duplicates")), MIN(first_time), MAX(last_time), \(sum("late"))
                FROM rollup_push GROUP BY push_id, kind, action
                """),
            ("rollup_bucket", "SELECT push_id, bucket, kind, action, \(sum("total")), \(sum("duplicates")) FROM rollup_bucket GROUP BY 1, 2, 3, 4"),
            ("rollup_time", "SELECT bucket, kind, action, \(sum("total")), \(sum("duplicates")) FROM rollup_time GROUP BY 1, 2, 3"),
            ("rollup_timing", "SELECT push_id, \(timing) FROM rollup_timing GROUP BY push_id"),
            ("pending_timing", "SELECT push_id, clock, second, \(sum("count")) FROM pending_timing GROUP BY 1, 2, 3"),
            ("rollup_version", """
                SELECT push_id, dimension, version, kind, action, \(sum("total")), \(sum("duplicates"))
                FROM rollup_version GROUP BY 1, 2, 3, 4, 5
                """),
            ("rollup_media", "SELECT push_id, \(media) FROM rollup_media GROUP BY push_id"),
            ("rollup_media_bucket", "SELECT push_id, bucket, \(mediaCounts) FROM rollup_media_bucket GROUP BY 1, 2"),
            ("rollup_media_version", "SELECT push_id, dimension, version, \(media) FROM rollup_media_version GROUP BY 1, 2, 3"),
            ("rollup_platform_bucket", """
                SELECT push_id, bucket, platform, kind, action, \(sum("total")), \(sum("duplicates"))
                FROM rollup_platform_bucket GROUP BY 1, 2, 3, 4, 5
                """),
        ] {
            // Summed by key: PostgreSQL keeps a row per key and collector shard, which reports add up the same
            // way. Sorted here, not by SQL: the stores order text by different collations.
            snapshot[table] = try await store.textRows(query)
                .sorted { $0.map { $0 ?? "" }.lexicographicallyPrecedes($1.map { $0 ?? "" }) }
        }
        return snapshot
    }

    func reports(_ store: any PushTallyStore) async throws -> [ReportTable] {
        [
            try await store.report(ReportRequest(.campaigns)),
            try await store.report(ReportRequest(.pushes(orphan: nil))),
            try await store.report(ReportRequest(.timeseries(TimeseriesOptions(width: .hour)))),
            try await store.report(ReportRequest(.versions(.appVersion))),
            try await store.report(ReportRequest(.versions(.osVersion))),
        ]
    }

    /// A random stream over ten simulated days, registrations in between, some pushes never registered.
    func load(_ store: any PushTallyStore, clock: TestClock, seed: UInt64) async throws {
        var rng = SplitMix64(state: seed)
        // Media from a generator of its own, so the rest of the stream is what it was without it.
        var mediaRNG = SplitMix64(state: ~seed)
        let sentBase = clock.now / 1000 * 1000 - 2 * 86_400_000
        for day in 0..<10 {
            var events: [IncomingEvent] = []
            for _ in 0..<120 {
                let push = "p\(Int.random(in: 0..<8, using: &rng))"
                var event = IncomingEvent(
                    pushID: push, kind: .display,
                    deviceID: Bool.random(using: &rng) ? "dev\(Int.random(in: 0..<20, using: &rng))" : nil,
                    receiptID: Bool.random(using: &rng) ? "r\(Int.random(in: 0..<80, using: &rng))" : nil,
                    deviceTimeMillis: clock.now - Int64.random(in: 0..<(3 * 86_400_000), using: &rng),
                    appVersion: ["2.0", "2.1", nil].randomElement(using: &rng)!, osVersion: ["17.5", "18.1"].randomElement(using: &rng)!)
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    event.kind = .action
                    event.action = ["open", "view", "dismiss"].randomElement(using: &rng)!
                } else {
                    event.media = [.attached, .failed, .timedOut, ReceiptMedia.none, nil].randomElement(using: &mediaRNG)!
                    event.extensionMillis = Bool.random(using: &mediaRNG) ? Int64.random(in: 0...30_000, using: &mediaRNG) : nil
                }
                events.append(event)
            }
            _ = try await store.ingest(events)
            if day == 3 || day == 7 {
                for push in 0..<(day == 3 ? 3 : 6) {
                    try await store.register(PushRegistration(
                        pushID: "p\(push)", campaign: "c\(push % 2)", sentAtMillis: sentBase + Int64(push) * 1000,
                        counts: SendCounts(sent: 100)))
                }
            }
            clock.advance(seconds: 86_400)
        }
    }

    @Test(arguments: StoreKind.allCases, [7 as UInt64, 99])
    func rebuildEqualsIncrementalAndPruningChangesNoReport(kind: StoreKind, seed: UInt64) async throws {
        let clock = TestClock(1_795_305_600_000)
        try await withStore(kind, clock: clock.function) { store in
            try await load(store, clock: clock, seed: seed)
            let incremental = try await rollupSnapshot(store)
            let before = try await reports(store)
            try await store.rebuildRollups()
            #expect(try await rollupSnapshot(store) == incremental, "rebuild from raw events differs")

            let rawBefore = try await store.rawEventCount()
            let pruned = try await store.prune(receivedBefore: clock.now - 5 * 86_400_000, batchSize: 50)
            #expect(pruned > 0)
            #expect(try await store.rawEventCount() == rawBefore - pruned)
            #expect(try await reports(store) == before, "a prune changed a report")
            try await store.rebuildRollups()
            #expect(try await rollupSnapshot(store) == incremental, "rebuild from ledger + raw events differs")
            #expect(try await reports(store) == before)

            // A push registered after its receipts were pruned still gets their timing, from the ledger.
            try await store.register(PushRegistration(pushID: "p7", campaign: "late", sentAtMillis: 1_794_000_000_000))
            let settled = try await rollupSnapshot(store)
            try await store.rebuildRollups()
            #expect(try await rollupSnapshot(store) == settled)
        }
    }

    /// The same stream into each store gives the same reports, figure for figure, and the same rollup rows.
    @Test(arguments: [7 as UInt64, 99]) func bothStoresGiveIdenticalReports(seed: UInt64) async throws {
        var results: [([ReportTable], [String: [[String?]]])] = []
        for kind in StoreKind.allCases {
            let clock = TestClock(1_795_305_600_000)
            try await withStore(kind, clock: clock.function) { store in
                try await load(store, clock: clock, seed: seed)
                _ = try await store.prune(receivedBefore: clock.now - 5 * 86_400_000, batchSize: 50)
                results.append((try await reports(store), try await rollupSnapshot(store)))
            }
        }
        #expect(results[0].0 == results[1].0, "SQLite and PostgreSQL reports differ")
        #expect(results[0].1 == results[1].1, "SQLite and PostgreSQL rollups differ")
    }

    @Test(arguments: StoreKind.allCases) func forgetDeletesADevicesEventsButKeepsCounts(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.ingest([
                receipt("p1", device: "install-a", receipt: "r1"), receipt("p1", device: "install-a", receipt: "r2"),
                receipt("p1", device: "install-b"), action("p1", "open", device: "install-a"),
            ])
            let stored = try await store.column("SELECT DISTINCT device_id FROM events").compactMap { $0 }
            #expect(!stored.contains("install-a"))
            #expect(stored.allSatisfy { $0.hasPrefix("d1:") && $0.utf8.count == 25 })
            let before = try await reports(store)
            #expect(try await store.forget(deviceID: "install-a") == 3)
            #expect(try await store.rawEventCount() == 1)
            #expect(try await reports(store) == before)
            // The device's keys are gone; receipt-id keys (random client ids, no device in them) stay.
            let keys = try await store.column("SELECT key FROM dedupe").compactMap { $0 }
            #expect(keys.count == 3)
            #expect(keys.filter { $0.contains("\u{1F}i\u{1F}") }.count == 1)
            let snapshot = try await rollupSnapshot(store)
            try await store.rebuildRollups()
            #expect(try await rollupSnapshot(store) == snapshot)
        }
    }

    @Test func theDeviceSecretIsPrivateAndStable() async throws {
        try await FreshStore.with(.sqlite, name: "secret") { fresh in
            let path = fresh.sqlitePath
            let first = try SQLiteStore(path: path, commitTimeout: FreshStore.patientCommitTimeout)
            _ = try await first.ingest([receipt("p", device: "same")])
            await first.shutdown()
            let attributes = try FileManager.default.attributesOfItem(atPath: path + ".secret")
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let second = try SQLiteStore(path: path, commitTimeout: FreshStore.patientCommitTimeout)
            defer { second.closeInBackground() }
            #expect(try await second.ingest([receipt("p", device: "same")]) == [true])
        }
    }

    @Test func backupIsAConsistentCopy() async throws {
        try await withSQLiteStore { store in
            _ = try await store.ingest((0..<500).map { receipt("p1", receipt: "r\($0)") })
            let target = store.path + ".backup"
            defer { try? FileManager.default.removeItem(atPath: target) }
            async let more = store.ingest((500..<1000).map { receipt("p1", receipt: "r\($0)") })
            try await store.backup(to: target)
            _ = try await more
            let copy = try DatabaseQueue(path: target)
            let count = try await copy.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0 }
            let rollup = try await copy.read { db in try Int.fetchOne(db, sql: "SELECT total FROM rollup_push") ?? 0 }
            #expect(count >= 500)
            #expect(rollup == count)  // raw rows and rollups from the same instant
            await #expect(throws: FieldError.self) { try await store.backup(to: target) }
        }
    }
}
