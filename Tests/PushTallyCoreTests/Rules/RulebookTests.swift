import Foundation
import Testing

@testable import PushTallyCore

/// The rules both engines apply, tested with no engine at all: a change here changes SQLite and PostgreSQL alike.
@Suite struct RulebookTests {
    @Test func dedupeKeysScopeByKindAndAction() {
        let display = DedupeKeys.of(kind: .display, action: "", deviceID: "dev", receiptID: "r1")
        let open = DedupeKeys.of(kind: .action, action: "open", deviceID: "dev", receiptID: "r1")
        let view = DedupeKeys.of(kind: .action, action: "view", deviceID: "dev", receiptID: nil)
        #expect(display == ["d\u{1F}r\u{1F}r1", "d\u{1F}i\u{1F}dev"])
        #expect(open == ["a\u{1F}open\u{1F}r\u{1F}r1", "a\u{1F}open\u{1F}i\u{1F}dev"])
        #expect(Set(display).isDisjoint(with: open) && Set(open).isDisjoint(with: view))
        #expect(DedupeKeys.of(kind: .display, action: "", deviceID: nil, receiptID: nil).isEmpty)
        // Forget matches every device key of the device, and nothing of another device or a receipt id.
        let suffix = DedupeKeys.deviceSuffix(keyedDeviceID: "dev")
        #expect((display + open + view).filter { $0.hasSuffix(suffix) }.count == 3)
        #expect(!"d\u{1F}i\u{1F}xdev".hasSuffix(suffix))
    }

    private func plan(_ push: PushRegistration, _ stored: Int64??) throws -> (RegistrationOutcome, Int64?) {
        let plan = try RegistrationPlan(push, stored: stored)
        return (plan.outcome, plan.settleTimingAt)
    }

    @Test func registrationCreatesUpdatesAndNeverMovesSentAt() throws {
        let push = PushRegistration(pushID: "p", campaign: "c", sentAtMillis: 5_000)
        #expect(try plan(push, nil) == (.created, 5_000))
        // Registered without sent_at: sent_at arrives now, so pending timing settles now.
        #expect(try plan(push, .some(nil)) == (.updated, 5_000))
        // Already set, same value: nothing to settle again.
        #expect(try plan(push, .some(5_000)) == (.updated, nil))
        #expect(throws: StoreError.sentAtImmutable(pushID: "p", current: 4_000)) {
            try RegistrationPlan(push, stored: .some(4_000))
        }
        // A registration without sent_at leaves a stored one alone.
        let undated = PushRegistration(pushID: "p", campaign: "c")
        #expect(try plan(undated, .some(4_000)) == (.updated, nil))
    }

    @Test func sendsForAnUnregisteredPushNeedACampaign() throws {
        let named = SendBatch(pushID: "p", batchID: "b", campaign: "c", counts: SendCounts(sent: 1))
        let anonymous = SendBatch(pushID: "p", batchID: "b", counts: SendCounts(sent: 1))
        #expect(try RegistrationPlan.campaign(forSends: named, registered: false) == "c")
        #expect(try RegistrationPlan.campaign(forSends: named, registered: true) == nil)
        #expect(try RegistrationPlan.campaign(forSends: anonymous, registered: true) == nil)
        #expect(throws: StoreError.pushNotRegistered(pushID: "p")) {
            try RegistrationPlan.campaign(forSends: anonymous, registered: false)
        }
        let counts = SendCounts(failed: ["Unregistered": 2, "BadDeviceToken": 1, "TooManyRequests": 0])
        #expect(counts.failureRows.map(\.reason) == ["BadDeviceToken", "Unregistered"])
    }

    @Test func pendingTimingSettlesAsIfTimedAtOnce() {
        let sentAt: Int64 = 1_000_000
        let window: Int64 = 60_000
        // Two receipts pending: one displayed 30 s after sending and received at once; one received after the window.
        let pending = [
            TimingSettlement.Pending(clock: 0, second: 1_030, count: 1),
            TimingSettlement.Pending(clock: 0, second: 1_100, count: 1),
            TimingSettlement.Pending(clock: 1, second: 1_030, count: 1),
            TimingSettlement.Pending(clock: 1, second: 1_100, count: 1),
        ]
        let (histogram, late) = TimingSettlement.settle(pending, sentAt: sentAt, maturityWindow: window)
        var direct = RollupAccumulator()
        direct.addTiming(pushID: "p", eventTime: 1_030_000, receivedAt: 1_030_000, sentAt: sentAt, maturityWindow: window)
        direct.addTiming(pushID: "p", eventTime: 1_100_000, receivedAt: 1_100_000, sentAt: sentAt, maturityWindow: window)
        #expect(histogram == direct.latency["p"])
        #expect(late == 1)
        #expect(direct.pushes[RollupAccumulator.PushKey(pushID: "p", kind: .display, action: "")]?.counts[.late] == 1)
    }

    @Test func counterAsksSentAtOncePerPushAndOnlyForUniqueDisplays() {
        var asked: [String] = []
        var counter = RollupCounter(maturityWindow: 60_000, names: NameFold())
        let events: [(StoredEvent, Bool)] = [
            (StoredEvent(pushID: "a", kind: .display, action: "", receivedAt: 2_000, eventTime: 2_000, duplicate: nil, appVersion: "1", osVersion: nil), false),
            (StoredEvent(pushID: "a", kind: .display, action: "", receivedAt: 3_000, eventTime: 3_000, duplicate: nil, appVersion: nil, osVersion: nil), false),
            (StoredEvent(pushID: "b", kind: .display, action: "", receivedAt: 3_000, eventTime: 3_000, duplicate: nil, appVersion: nil, osVersion: nil), true),
            (StoredEvent(pushID: "c", kind: .action, action: "open", receivedAt: 3_000, eventTime: 3_000, duplicate: nil, appVersion: nil, osVersion: nil), false),
        ]
        for (event, duplicate) in events {
            counter.add(event, duplicate: duplicate) { pushID in
                asked.append(pushID)
                return pushID == "a" ? 1_000 : nil
            }
        }
        #expect(asked == ["a"])
        #expect(RollupCounter.timedPushIDs(events) == ["a"])
        #expect(counter.accumulator.latency["a"]?.total == 2)
        #expect(counter.accumulator.pushes[RollupAccumulator.PushKey(pushID: "b", kind: .display, action: "")]?.duplicates == 1)
        #expect(counter.accumulator.versions.count == 1)
    }

    @Test func pushAssemblyJoinsRegistrationsSendsRollupsAndOrphans() throws {
        var assembly = PushFiguresAssembly()
        assembly.registered(pushID: "p1", campaign: "c", title: "t", sentAtMillis: 10, app: nil, environment: "production")
        assembly.registered(pushID: "p2", campaign: "c", title: nil, sentAtMillis: nil, app: nil, environment: nil)
        assembly.sends(pushID: "p1", targeted: 5, sent: 4)
        assembly.sends(pushID: "p2", targeted: 3, sent: 3)
        assembly.sends(pushID: "unknown", targeted: 1, sent: 1)
        assembly.failures(pushID: "p1", reason: "Unregistered", count: 1)
        assembly.rollup(pushID: "p1", kind: .display, action: "", count: EventCount(total: 3, duplicates: 1), late: 1, firstEvent: 20)
        assembly.rollup(pushID: "p1", kind: .display, action: "", count: EventCount(total: 1), late: 0, firstEvent: 15)
        assembly.rollup(pushID: "p1", kind: .action, action: "open", count: EventCount(total: 1), late: 0, firstEvent: 30)
        assembly.rollup(pushID: "orphan", kind: .display, action: "", count: EventCount(total: 2), late: 0, firstEvent: 40)
        var histogram = LatencyHistogram()
        histogram.add(bucket: 3, count: 2)
        assembly.timing(pushID: "p1", histogram: histogram)
        assembly.timing(pushID: "p1", histogram: histogram)
        // Count by count, as SQLite reads a row: only registered pushes have histograms.
        assembly.timing(pushID: "p2", count: { $0 == 5 ? 7 : 0 })
        assembly.timing(pushID: "unknown", count: { _ in 1 })

        let all = try assembly.figures(ReportFilter())
        #expect(all.map(\.pushID) == ["orphan", "p1", "p2"])
        let p1 = all[1].funnel
        #expect(p1.sent == 4 && p1.sentTimed == 4 && p1.targeted == 5 && p1.failedByReason == ["Unregistered": 1])
        #expect(p1.displays == EventCount(total: 4, duplicates: 1) && p1.late == 1)
        #expect(p1.actions["open"] == EventCount(total: 1) && p1.latency.total == 4)
        #expect(all[1].firstEventMillis == 15)
        // Only a push with a sent_at counts towards timed rates.
        #expect(all[2].funnel.sent == 3 && all[2].funnel.sentTimed == 0)
        #expect(all[2].funnel.latency.total == 7 && all[2].funnel.latency.counts[5] == 7)
        #expect(all.count == 3, "timing alone makes no push")
        #expect(all[0].isOrphan && all[0].funnel.displays.total == 2)
        #expect(try assembly.figures(ReportFilter(environment: "production")).map(\.pushID) == ["p1"])
    }

    @Test func scopesNarrowTheSameWayInEveryDialect() {
        #expect(PushScope(ReportFilter()).clause(.sqlite).sql == "")
        #expect(PushScope(ReportFilter(campaign: "c", pushID: "p")) == .push("p"))
        let campaign = PushScope(ReportFilter(campaign: "c")).clause(.postgres)
        #expect(SQLDialect.postgres.placeholders(campaign.sql) == "WHERE push_id IN (SELECT push_id FROM pushes WHERE campaign = $1)" && campaign.values == ["c"])
        // A page of campaigns compares names byte for byte on both engines; the last page is the orphans'.
        var paged = ReportFilter()
        paged.page = .campaigns(first: "a", last: "m")
        #expect(PushScope(paged) == .campaigns(first: "a", last: "m"))
        let page = PushScope(paged).clause(.postgres)
        #expect(
            SQLDialect.postgres.placeholders(page.sql) == #"WHERE push_id IN (SELECT push_id FROM pushes WHERE campaign COLLATE "C" >= $1 AND campaign COLLATE "C" <= $2)"#
                && page.values == ["a", "m"])
        #expect(PushScope(paged).clause(.sqlite).sql == "WHERE push_id IN (SELECT push_id FROM pushes WHERE campaign >= ? AND campaign <= ?)")
        paged.page = .orphans(after: nil, through: nil)
        #expect(
            PushScope(paged).clause(.sqlite, key: "rollup_push.push_id").sql
                == "WHERE NOT EXISTS (SELECT 1 FROM pushes registered WHERE registered.push_id = rollup_push.push_id)")
        paged.page = .orphans(after: "o1", through: "o9")
        let orphans = PushScope(paged).clause(.postgres, key: "rollup_fcm.push_id")
        #expect(
            SQLDialect.postgres.placeholders(orphans.sql) == "WHERE NOT EXISTS (SELECT 1 FROM pushes registered WHERE registered.push_id = rollup_fcm.push_id)"
                + " AND rollup_fcm.push_id > $1 AND rollup_fcm.push_id <= $2" && orphans.values == ["o1", "o9"])
        paged.campaign = "c"
        #expect(PushScope(paged) == .campaign("c"), "a named campaign is one page")

        let filter = ReportFilter(fromMillis: 0, toMillis: EventTime.bucketMillis * 2, campaign: "c", pushID: "p")
        let scope = RollupScope(filter, bucketRange: true).requiring("b.kind =", .integer(0))
        #expect(scope.joinsPushes)
        #expect(SQLDialect.postgres.placeholders(scope.sql) == "JOIN pushes p ON p.push_id = b.push_id WHERE p.campaign = $1 AND b.push_id = $2 AND b.bucket >= $3 AND b.bucket <= $4 AND b.kind = $5")
        #expect(scope.conditions.map(\.value) == [.text("c"), .text("p"), .integer(0), .integer(1), .integer(0)])
        #expect(RollupScope(ReportFilter()).sql == "")
        #expect(!RollupScope(ReportFilter(pushID: "p")).joinsPushes)
    }

    @Test func unnamedVersionsAreTheRemainderOfThePushTotals() {
        let named = [
            VersionCount(version: "1.0", kind: .display, action: "", count: EventCount(total: 3, duplicates: 1)),
            VersionCount(version: "2.0", kind: .display, action: "", count: EventCount(total: 2)),
        ]
        let completed = VersionCount.completing(named, pushTotals: [
            (.display, "", EventCount(total: 10, duplicates: 2)),
            (.action, "open", EventCount(total: 4)),
            (.action, "view", EventCount(total: 0)),
        ])
        #expect(completed.count == 4)
        #expect(completed[2] == VersionCount(version: "", kind: .display, action: "", count: EventCount(total: 5, duplicates: 1)))
        #expect(completed[3] == VersionCount(version: "", kind: .action, action: "open", count: EventCount(total: 4)))
    }

    @Test func exportRecordsRoundTripThroughTheFileFormat() throws {
        let stored = StoredEvent(
            pushID: "p", kind: .action, action: "view", receivedAt: 2_000, eventTime: 1_500, duplicate: true,
            deviceID: "dev", receiptID: "r", platform: "ios", appVersion: "3.1", osVersion: "18.1")
        let exported = ExportedEvent(stored, seq: 7)
        #expect(exported.kind == "action" && exported.action == "view" && exported.seq == 7)
        let line = try ExportFormat.line(exported)
        #expect(line.hasSuffix("\n") && line.contains("\"app_version\":\"3.1\""))
        let read = try ExportFormat.event(line: String(line.dropLast()))
        // Imported, it keeps the id its source gave it (from an export without ids, the one its source would give).
        var identified = stored
        identified.eventID = "db-1:7"
        #expect(StoredEvent(imported: read, source: "db-1") == identified)
        var named = read
        named.identify(source: "db-1")
        #expect(named.event_id == "db-1:7" && named.type == "action")
        #expect(StoredEvent(imported: named, source: "db-2").eventID == "db-1:7", "an id, once given, is kept")
        // A display exports no action, and an imported action is normalised as at ingest.
        let display = ExportedEvent(StoredEvent(pushID: "p", kind: .display, action: "", receivedAt: 1, eventTime: 1, duplicate: false, appVersion: nil, osVersion: nil), seq: 1)
        #expect(display.action == nil)
        var odd = exported
        odd.action = "com.apple.UNNotificationDefaultActionIdentifier"
        #expect(StoredEvent(imported: odd, source: "db-1").action == StandardAction.normalise(odd.action!))

        let header = ExportFormat.header(source: "db-1", exportedAtMillis: 0)
        #expect(ExportFormat.header(line: String(try ExportFormat.line(header).dropLast())) == header)
        var newer = header
        newer.version = ExportHeader.currentVersion + 1
        #expect(ExportFormat.header(line: String(try ExportFormat.line(newer).dropLast())) == nil)
        #expect(ExportFormat.header(line: "{\"push_id\":\"p\"}") == nil)
    }

    @Test func rebuildPairsEveryRollupTableWithItsLedgerTwin() {
        #expect(MaintenancePlan.rebuildPairs.map { [$0.0, $0.1] } == [
            ["rollup_push", "ledger_push"], ["rollup_bucket", "ledger_bucket"], ["rollup_timing", "ledger_timing"],
            ["pending_timing", "ledger_pending"], ["rollup_version", "ledger_version"],
            ["rollup_outcome", "ledger_outcome"], ["rollup_outcome_time", "ledger_outcome_time"], ["rollup_time", "ledger_time"],
            ["rollup_media", "ledger_media"], ["rollup_media_bucket", "ledger_media_bucket"],
            ["rollup_media_version", "ledger_media_version"], ["rollup_platform_bucket", "ledger_platform_bucket"],
        ])
        #expect(TimingColumns.count == LatencyHistogram.upperBoundsSeconds.count + 1)
    }
}

@Suite struct PushEncoderTests {
    /// What the CLI sends to `POST /v1/pushes` reads back as the same registration, milliseconds included.
    @Test func aRegistrationRoundTripsThroughTheValidator() throws {
        let push = PushRegistration(
            pushID: "p-1", campaign: "新品 上架", title: "Sale", sentAtMillis: 1_795_000_000_123, app: "com.example",
            environment: "production", counts: SendCounts(targeted: 10, sent: 9, failed: ["Unregistered": 1]))
        let data = try JSONEncoder().encode(push)
        #expect(try PushValidator.registration(try JSONValue.parse(data)) == push)
        let minimal = PushRegistration(pushID: "p-2", campaign: "c")
        #expect(try PushValidator.registration(try JSONValue.parse(try JSONEncoder().encode(minimal))) == minimal)
    }

    /// The encoder writes sent_at as decimal seconds, which read back to the very millisecond.
    @Test func decimalSecondsKeepTheirMilliseconds() throws {
        for millis: Int64 in [1_795_000_000_123, 1_795_000_000_001, 1_795_000_000_999, 1_000, -1_500] {
            let push = PushRegistration(pushID: "p", campaign: "c", sentAtMillis: millis)
            #expect(try PushValidator.registration(try JSONValue.parse(try JSONEncoder().encode(push))).sentAtMillis == millis)
        }
    }
}
