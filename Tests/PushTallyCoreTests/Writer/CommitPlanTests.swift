import Testing

@testable import PushTallyCore

/// The commit plan both engines execute: retries from the new keys, rollups, touched devices, rows, outbox.
@Suite struct CommitPlanTests {
    let now: Int64 = 1_700_000_000_000

    func display(_ push: String, device: String? = nil, receipt: String? = nil, lag: Int64? = nil) -> StoredEvent {
        StoredEvent(
            IncomingEvent(pushID: push, kind: .display, deviceID: device, receiptID: receipt, deviceTimeMillis: lag.map { now - $0 }),
            receivedAt: now)
    }

    func action(_ push: String, _ name: String, device: String?) -> StoredEvent {
        StoredEvent(IncomingEvent(pushID: push, kind: .action, action: name, deviceID: device), receivedAt: now)
    }

    @Test func anEventIsARetryWhenAnyOfItsKeysWasStoredBefore() {
        let events = [
            display("p", device: "d1", receipt: "r1"),  // keys r1, d1: both new
            display("p", device: "d2", receipt: "r1"),  // r1 not new (same commit), d2 new
            display("p"),  // no keys: never a retry
            display("p", device: "d3"),  // d3 stored by an earlier commit
        ]
        let plan = CommitPlan(events, newKeys: [true, true, false, true, false])
        #expect(plan.duplicates == [false, true, false, true])
        #expect(plan.rows.map(\.1) == plan.duplicates)
        #expect(plan.outboxEvents.map(\.deviceID) == ["d1", nil])
    }

    @Test func anImportedEventKeepsItsFlag() {
        var imported = display("p", device: "d1", receipt: "r1")
        imported.duplicate = true
        var original = display("p", device: "d2")
        original.duplicate = false
        let plan = CommitPlan([imported, original], newKeys: [true, true, false])
        #expect(plan.duplicates == [true, false])
    }

    @Test func setBasedEnginesClaimEachInsertedKeyOnce() {
        let keys = [
            [DedupeKey(pushID: "p", key: "a"), DedupeKey(pushID: "p", key: "b")],
            [DedupeKey(pushID: "p", key: "a")],
            [DedupeKey(pushID: "p", key: "c")],
        ]
        #expect(CommitPlan.newKeys(keys, inserted: [DedupeKey(pushID: "p", key: "a"), DedupeKey(pushID: "p", key: "b")])
            == [true, true, false, false])
        let predicted = CommitPlan.predictedNewKeys(keys)
        #expect(predicted.newKeys == [true, true, false, true] && predicted.distinct.count == 3)
        // Canonically equivalent ids are two keys, as the databases store them.
        #expect(DedupeKey(pushID: "p", key: "\u{E9}") != DedupeKey(pushID: "p", key: "e\u{301}"))
    }

    @Test func timesAreClampedAndRollupsCountRetriesApart() {
        // A device clock a month behind is not believed: the event is placed at the lag bound.
        let late = display("p", device: "d1", lag: 30 * 24 * 3600 * 1000)
        #expect(late.eventTime == now - EventTime.maximumDeviceLagMillis)
        let plan = CommitPlan([late, display("p", device: "d1")], newKeys: [true, false])
        let counter = plan.rollups(maturityWindow: 3_600_000, names: NameFold()) { _ in now - 1000 }
        let push = counter.accumulator.pushes[RollupAccumulator.PushKey(pushID: "p", kind: .display, action: "")]
        #expect(push?.total == 2 && push?.duplicates == 1)
        #expect(plan.timedPushIDs == ["p"])
    }

    @Test func aDismissTouchesNoDeviceAndRetriesTouchNone() {
        let events = [
            action("p", StandardAction.dismiss, device: "d1"), action("p", StandardAction.open, device: "d2"),
            display("p", device: "d3"), display("p", device: "d4"),
        ]
        let plan = CommitPlan(events, newKeys: [true, true, true, false])
        #expect(plan.touches.sorted.map(\.deviceID) == ["d2", "d3"])
        // Locks are taken before the retries are known: every device but the dismissing one's.
        #expect(CommitPlan.devicesToLock(events) == ["d2", "d3", "d4"])
        #expect(plan.outboxEvents.map(\.deviceID) == ["d1", "d2", "d3"])
    }

    @Test func sessionsAndConversionsGoToNoOutboxAndTouchTheirDevice() {
        let session = StoredEvent(.session(deviceID: "d1", sessionID: "s1"), receivedAt: now)
        let plan = CommitPlan([session], newKeys: [true])
        #expect(plan.outboxEvents.isEmpty)
        #expect(plan.touches.devices["d1"]?.hasOutcome == true)
    }
}

/// The shared SQL rendered per engine: the shard is the dialect's, not a second statement.
@Suite struct SQLDialectTests {
    @Test func rollupUpsertsDifferOnlyByShardAndSpelling() {
        let sqlite = SQLDialect.sqlite.upsert(.push, into: .rollups)
        let live = SQLDialect.postgres.upsert(.push, into: .rollups)
        let ledger = SQLDialect.postgres.upsert(.push, into: .ledger)
        #expect(sqlite.singleRow == """
            INSERT INTO rollup_push (push_id, kind, action, total, duplicates, first_time, last_time, late) VALUES (?, ?, ?, ?, ?, ?, ?, ?) \
            ON CONFLICT (push_id, kind, action) DO UPDATE SET total = total + excluded.total, duplicates = duplicates + excluded.duplicates, \
            first_time = min(first_time, excluded.first_time), last_time = max(last_time, excluded.last_time), late = late + excluded.late
            """)
        #expect(live.head.hasSuffix("late, shard)") && live.conflict.hasPrefix("ON CONFLICT (push_id, kind, action, shard)"))
        #expect(live.conflict.contains("LEAST(t.first_time, excluded.first_time)"))
        #expect(live.columnCount == 9 && ledger.columnCount == 8 && !ledger.conflict.contains("shard"))
    }

    @Test func tablesAreCreatedWithTheUpsertsColumns() {
        for table in RollupTable.allCases {
            for dialect in [SQLDialect.sqlite, .postgres] {
                let create = dialect.create(table, in: .rollups, sharded: dialect.shards(.rollups))
                let upsert = dialect.upsert(table, into: .rollups)
                let columns = (table.key + table.values).map(\.name) + (dialect.shards(.rollups) ? ["shard"] : [])
                #expect(upsert.head.hasSuffix("(\(columns.joined(separator: ", ")))"))
                for column in columns { #expect(create.contains("\(column) "), "\(column) in \(create)") }
            }
        }
    }

    @Test func receiptsNameAPrefixOfEveryColumn() {
        #expect(Array(EventColumns.all.prefix(EventColumns.receipt.count)) == EventColumns.receipt)
        #expect(SQLDialect.eventInsert(EventColumns.receipt) == """
            INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate, device_id, receipt_id, platform, \
            app_version, os_version, media, extension_ms)
            """)
        #expect(SQLDialect.postgres.addEventColumn(.valueMicros) == "ALTER TABLE events ADD COLUMN value_micros BIGINT")
        #expect(SQLDialect.sqlite.createEvents.contains("duplicate INTEGER NOT NULL"))
        #expect(SQLDialect.postgres.createEvents.contains("duplicate BOOLEAN NOT NULL"))
    }

    @Test func sessionsNameNoPushOrAction() {
        let session = StoredEvent(.session(deviceID: "d1", sessionID: "s1"), receivedAt: 5)
        let credit = Attribution.direct(pushID: "p1")
        #expect(EventColumn.pushID.value(of: session, duplicate: false, credit: credit) == .text(""))
        #expect(EventColumn.attributedPush.value(of: session, duplicate: false, credit: credit) == .text("p1"))
        #expect(EventColumn.attribution.value(of: session, duplicate: false, credit: credit) == .integer(Int64(credit.code)))
    }
}
