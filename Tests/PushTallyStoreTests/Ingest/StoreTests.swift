import Foundation
import GRDB
import PushTallySQLite
import PushTallyStores
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

@Suite struct StoreTests {
    @Test func writerRunsWithSynchronousFull() async throws {
        try await withSQLiteStore { store in
            #expect(try await store.writerSynchronousLevel() == 2)
            let checkpoint = try await store.pool.writeWithoutTransaction { db in
                try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint")
            }
            #expect(checkpoint == SQLiteStore.checkpointPages)
            let journal = try await store.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(journal == "wal")
        }
    }

    /// The log's checkpoint comes at a quarter of the disk's free space, between a small floor and the 64 MB
    /// it keeps where there is room: a small volume is not filled by the log alone.
    @Test func theLogIsKeptWithinTheDisksRoom() {
        #expect(WALBudget.pages(freeBytes: 10 << 30) == SQLiteStore.checkpointPages)
        #expect(WALBudget.pages(freeBytes: 24 << 20) == 1_536)
        #expect(WALBudget.pages(freeBytes: 0) == WALBudget.minimumPages)
    }

    @Test(arguments: StoreKind.allCases) func countsReceiptsAndRecognisesRetries(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let flags = try await store.ingest([
                receipt("p1", device: "d1", receipt: "r1"),
                receipt("p1", device: "d1", receipt: "r1"),  // retry: both ids match
                receipt("p1", receipt: "r1"),  // retry by receipt id alone
                receipt("p1", device: "d1"),  // retry by device alone
                receipt("p1", device: "d2"),
                receipt("p1"),  // no ids: cannot be recognised
                receipt("p1"),
            ])
            #expect(flags == [false, true, true, true, false, false, false])
            let push = try #require(try await store.pushFigures().first)
            #expect(push.funnel.displayed == 7)
            #expect(push.funnel.duplicates == 3)
            #expect(push.funnel.displayedUnique == 4)
            #expect(push.isOrphan)
        }
    }

    @Test(arguments: StoreKind.allCases) func retriesAcrossRequestsAreRecognised(kind: StoreKind) async throws {
        try await withStore(kind) { (store: any TestStore) async throws in
            #expect(try await store.ingest([receipt("p1", receipt: "r1")]) == [false])
            #expect(try await store.ingest([receipt("p1", receipt: "r1")]) == [true])
            // The same receipt id on another push is another receipt.
            #expect(try await store.ingest([receipt("p2", receipt: "r1")]) == [false])
        }
    }

    @Test(arguments: StoreKind.allCases) func actionsDedupePerIdentifier(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let flags = try await store.ingest([
                action("p1", "open", device: "d1"),
                action("p1", "open", device: "d1"),
                action("p1", "view", device: "d1"),
                action("p1", "dismiss", device: "d2"),
                receipt("p1", device: "d1"),
            ])
            #expect(flags == [false, true, false, false, false])
            let funnel = try #require(try await store.pushFigures().first).funnel
            #expect(funnel.opened == 2)
            #expect(funnel.openedUnique == 1)
            #expect(funnel.dismissed == 1)
            #expect(funnel.customActions == ["view": 1])
            #expect(funnel.displayedUnique == 1)
            #expect(funnel.openRate == 1.0)
        }
    }

    @Test(arguments: StoreKind.allCases) func registrationIsIdempotentAndReplacesTotals(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let push = PushRegistration(
                pushID: "p1", campaign: "c", sentAtMillis: 1000, counts: SendCounts(targeted: 10, sent: 8, failed: ["Unregistered": 2]))
            #expect(try await store.register(push) == .created)
            #expect(try await store.register(push) == .updated)
            var figures = try #require(try await store.pushFigures().first)
            #expect(figures.funnel.sent == 8)
            #expect(figures.funnel.failed == 2)
            var corrected = push
            corrected.counts = SendCounts(targeted: 10, sent: 9, failed: ["BadDeviceToken": 1])
            try await store.register(corrected)
            figures = try #require(try await store.pushFigures().first)
            #expect(figures.funnel.sent == 9)
            #expect(figures.funnel.failedByReason == ["BadDeviceToken": 1])
        }
    }

    @Test(arguments: StoreKind.allCases) func sentAtNeverMoves(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.register(PushRegistration(pushID: "p1", campaign: "c", sentAtMillis: 1000))
            await #expect(throws: StoreError.sentAtImmutable(pushID: "p1", current: 1000)) {
                try await store.register(PushRegistration(pushID: "p1", campaign: "c", sentAtMillis: 2000))
            }
            // Omitting sent_at keeps it.
            try await store.register(PushRegistration(pushID: "p1", campaign: "c2"))
            let push = try #require(try await store.pushFigures().first)
            #expect(push.sentAtMillis == 1000)
            #expect(push.campaign == "c2")
        }
    }

    @Test(arguments: StoreKind.allCases) func parallelSendersAddByBatchID(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.register(PushRegistration(pushID: "p1", campaign: "c", counts: SendCounts(sent: 100)))
            try await store.addSends(SendBatch(pushID: "p1", batchID: "w1", counts: SendCounts(targeted: 5, sent: 4, failed: ["Unregistered": 1])))
            try await store.addSends(SendBatch(pushID: "p1", batchID: "w2", counts: SendCounts(targeted: 5, sent: 5)))
            // A retried batch replaces itself rather than adding again.
            try await store.addSends(SendBatch(pushID: "p1", batchID: "w1", counts: SendCounts(targeted: 5, sent: 4, failed: ["Unregistered": 1])))
            let funnel = try #require(try await store.pushFigures().first).funnel
            #expect(funnel.sent == 109)
            #expect(funnel.targeted == 10)
            #expect(funnel.failed == 1)
        }
    }

    @Test(arguments: StoreKind.allCases) func sendsForAnUnknownPushNeedACampaign(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            await #expect(throws: StoreError.pushNotRegistered(pushID: "p9")) {
                try await store.addSends(SendBatch(pushID: "p9", batchID: "w1", counts: SendCounts(sent: 1)))
            }
            try await store.addSends(SendBatch(pushID: "p9", batchID: "w1", campaign: "c", counts: SendCounts(sent: 1)))
            #expect(try await store.pushFigures().first?.campaign == "c")
        }
    }

    @Test(arguments: StoreKind.allCases) func orphansJoinTheirCampaignOnceRegistered(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.ingest([receipt("p1", device: "a"), receipt("p1", device: "b")])
            var rows = try CampaignsReport.rows(try await store.pushFigures())
            #expect(rows.count == 1)
            #expect(rows[0].isOrphan)
            #expect(rows[0].pushIDs == ["p1"])
            #expect(rows[0].funnel.displayed == 2)
            #expect(rows[0].funnel.displayRate == nil)
            try await store.register(PushRegistration(pushID: "p1", campaign: "launch", counts: SendCounts(sent: 4)))
            rows = try CampaignsReport.rows(try await store.pushFigures())
            #expect(rows.map(\.campaign) == ["launch"])
            #expect(rows[0].funnel.displayRate == 0.5)
        }
    }

    @Test(arguments: StoreKind.allCases) func eventTimeIsClampedAndBucketed(kind: StoreKind) async throws {
        let clock = TestClock(1_795_000_000_000)
        try await withStore(kind, clock: clock.function) { store in
            _ = try await store.ingest([
                receipt("p1", ts: clock.now + 86_400_000),  // a clock in the future: counted at receipt
                receipt("p1", ts: clock.now - 30 * 86_400_000),  // a month late: counted 7 days back
                receipt("p1", ts: clock.now - 1_800_000),
            ])
            let times = try await store.integers("SELECT event_time FROM events ORDER BY event_time")
            #expect(times == [clock.now, clock.now - EventTime.maximumDeviceLagMillis, clock.now - 1_800_000].sorted())
            let buckets = try await store.textRows("SELECT bucket, total FROM rollup_bucket ORDER BY bucket")
                .map { $0.map { Int64($0 ?? "") ?? .min } }
            #expect(buckets == times.sorted().map { [EventTime.bucket(ofMillis: $0), 1] })
            #expect(try await store.pushFigures().first?.firstEventMillis == clock.now - EventTime.maximumDeviceLagMillis)
        }
    }

    @Test(arguments: StoreKind.allCases) func reportFilterUsesSentAtOrFirstReceipt(kind: StoreKind) async throws {
        let clock = TestClock(1_795_000_000_000)
        try await withStore(kind, clock: clock.function) { store in
            try await store.register(PushRegistration(pushID: "old", campaign: "c", sentAtMillis: 1_000))
            try await store.register(PushRegistration(pushID: "new", campaign: "c", sentAtMillis: 2_000))
            _ = try await store.ingest([receipt("orphan")])
            let window = ReportFilter(fromMillis: 1_500, toMillis: 1_795_000_000_001)
            #expect(try await store.pushFigures(window).map(\.pushID) == ["new", "orphan"])
            #expect(try await store.pushFigures(ReportFilter(toMillis: 2_000)).map(\.pushID) == ["old"])
        }
    }

    @Test func refusesADatabaseFromANewerVersion() async throws {
        try await FreshStore.with(.sqlite, name: "newer") { fresh in
            let path = fresh.sqlitePath
            do {
                let store = try SQLiteStore(path: path, commitTimeout: FreshStore.patientCommitTimeout)
                try await store.pool.write { db in
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v999-from-the-future')")
                }
                await store.shutdown()
            }
            #expect(throws: StoreError.databaseNewerThanCode(path: path)) { try SQLiteStore(path: path) }
        }
    }

    /// A database written before v5 keeps its time-to-display histograms, bucket for bucket.
    @Test func timingRowsMigrateFromPerBucketRows() async throws {
        #expect(TimingColumns.count == LatencyHistogram.upperBoundsSeconds.count + 1, "bucket bounds changed: add a migration")
        try await FreshStore.with(.sqlite, name: "v4") { fresh in
            let path = fresh.sqlitePath
            let old = try DatabaseQueue(path: path)
            try Migrations.migrator.migrate(old, upTo: "v4-versions")
            try await old.write { db in
                try db.execute(sql: "INSERT INTO pushes (push_id, campaign, sent_at, created_at, updated_at) VALUES ('p1', 'c', 0, 0, 0)")
                try db.execute(sql: "INSERT INTO rollup_latency VALUES ('p1', 0, 2), ('p1', 22, 5), ('p1', 39, 1), ('p2', 3, 7)")
                try db.execute(sql: "INSERT INTO ledger_latency VALUES ('p1', 22, 4)")
            }
            try old.close()
            let store = try SQLiteStore(path: path, commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            let figures = try #require(try await store.pushFigures(ReportFilter(pushID: "p1")).first)
            var expected = LatencyHistogram()
            expected.add(bucket: 0, count: 2)
            expected.add(bucket: 22, count: 5)
            expected.add(bucket: 39, count: 1)
            #expect(figures.funnel.latency == expected)
            let ledger = try await store.pool.read { db in try Int64.fetchOne(db, sql: "SELECT b22 FROM ledger_timing WHERE push_id = 'p1'") }
            #expect(ledger == 4)
            let tables = try await store.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE '%latency%'") }
            #expect(tables.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases) func overloadedWriterRefusesRatherThanQueueing(kind: StoreKind) async throws {
        try await withStore(kind, highWaterMark: 10) { (store: any TestStore) async throws in
            // Many concurrent submissions against a tiny high-water mark: some must be refused, none lost.
            let results = await withTaskGroup(of: Result<[Bool], any Error>.self) { group in
                for i in 0..<50 {
                    group.addTask {
                        do { return .success(try await store.ingest((0..<5).map { receipt("p\(i)-\($0)") })) } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let accepted = results.filter { (try? $0.get()) != nil }.count
            let refused = results.filter { if case .failure(let e) = $0 { (e as? WriterError) == .overloaded } else { false } }.count
            #expect(accepted + refused == 50)
            #expect(accepted > 0)
            #expect(try await store.rawEventCount() == accepted * 5)
        }
    }

    @Test(arguments: StoreKind.allCases) func tokensAreHashedAndRevocable(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            #expect(try await store.hasActiveTokens() == false)
            let (token, info) = try await store.createToken(role: .read, label: "dashboard")
            #expect(try await store.role(ofToken: token) == .read)
            let stored = try #require(try await store.column("SELECT secret_hash FROM tokens").first ?? nil)
            #expect(stored.count == 64, "a 32-byte hash, in hex")
            #expect(!stored.contains(token.suffix(64)))
            // A token with the right id but a wrong secret is refused.
            let forged = String(token.dropLast()) + (token.last == "0" ? "1" : "0")
            #expect(try await store.role(ofToken: forged) == nil)
            #expect(try await store.role(ofToken: "garbage") == nil)
            #expect(try await store.revokeToken(info.id))
            #expect(try await store.role(ofToken: token) == nil)
            #expect(try await store.revokeToken(info.id) == false)
            #expect(try await store.listTokens().first?.revokedAtMillis != nil)
        }
    }
}

@Suite struct WriterStateMachineTests {
    @Test func takesEverythingQueuedAtOnce() {
        var machine = WriterStateMachine<Int>(highWaterMark: 100)
        guard case .wait = machine.next() else { Issue.record("idle writer should wait"); return }
        #expect(machine.submit(1, events: 10) == .enqueued)
        #expect(machine.submit(2, events: 10) == .enqueued)
        guard case .flush(let jobs) = machine.next() else { Issue.record("expected a flush"); return }
        #expect(jobs == [1, 2])
        #expect(machine.queuedEvents == 0)
    }

    @Test func refusesPastTheHighWaterMarkButNeverAnEmptyQueue() {
        var machine = WriterStateMachine<Int>(highWaterMark: 10)
        #expect(machine.submit(1, events: 50) == .enqueued)
        #expect(machine.submit(2, events: 1) == .overloaded)
        _ = machine.next()
        #expect(machine.submit(3, events: 10) == .enqueued)
    }

    @Test func drainsThenExitsWhenClosed() {
        var machine = WriterStateMachine<Int>(highWaterMark: 10)
        #expect(machine.submit(1, events: 1) == .enqueued)
        machine.close()
        #expect(machine.submit(2, events: 1) == .closed)
        guard case .flush(let jobs) = machine.next(), jobs == [1] else { Issue.record("queued work must be flushed"); return }
        guard case .exit = machine.next() else { Issue.record("expected exit"); return }
    }
}
