import Foundation
import GRDB
import PushTallySQLite
import PushTallyStores
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

/// Random streams of receipts, retries, actions and registrations, in random order and concurrently:
/// every report figure must equal a recount from the raw events and the send records.
@Suite struct RecountPropertyTests {
    static let seeds: [UInt64] = [1, 2, 3, 42, 2018001]

    /// A raw event as read back for the recount.
    struct RawRow {
        var pushID: String
        var kind: EventKind
        var action: String
        var deviceID: String?
        var receiptID: String?
        var duplicate: Bool
        var eventTime: Int64
        var receivedAt: Int64
        var media: ReceiptMedia?
        var extensionMillis: Int64?
    }

    @Test(arguments: StoreKind.allCases, seeds) func reportsEqualARecountFromRawEvents(kind storeKind: StoreKind, seed: UInt64) async throws {
        var rng = SplitMix64(state: seed)
        try await withStore(storeKind) { store in
            let pushIDs = (0..<6).map { "push-\($0)" }
            let campaigns = ["春季", "=HYPERLINK(\"x\")", "plain"]
            var events: [IncomingEvent] = []
            for _ in 0..<400 {
                let push = pushIDs.randomElement(using: &rng)!
                let device = Bool.random(using: &rng) ? "dev-\(Int.random(in: 0..<15, using: &rng))" : nil
                let receiptID = Bool.random(using: &rng) ? "r-\(Int.random(in: 0..<60, using: &rng))" : nil
                var event = IncomingEvent(pushID: push, kind: .display, deviceID: device, receiptID: receiptID)
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    event.kind = .action
                    event.action = ["open", "dismiss", "view", "favorite"].randomElement(using: &rng)!
                } else {
                    event.media = [.attached, .failed, .timedOut, ReceiptMedia.none, nil].randomElement(using: &rng)!
                    event.extensionMillis = Bool.random(using: &rng) ? Int64.random(in: 0...30_000, using: &rng) : nil
                }
                events.append(event)
                if Int.random(in: 0..<4, using: &rng) == 0 { events.append(event) }  // a retry
            }
            events.shuffle(using: &rng)
            var registrations: [PushRegistration] = []
            for push in pushIDs.dropLast() {  // the last push stays an orphan
                // Whole seconds, some long enough ago that receipts now are late.
                let sentAt = Bool.random(using: &rng) ? (Int64.random(in: 1..<20 * 86_400, using: &rng) * -1000 + StoreConfiguration.systemClock() / 1000 * 1000) : nil
                registrations.append(PushRegistration(
                    pushID: push, campaign: campaigns.randomElement(using: &rng)!, sentAtMillis: sentAt,
                    counts: SendCounts(
                        targeted: Int64.random(in: 0..<200, using: &rng), sent: Int64.random(in: 0..<150, using: &rng),
                        failed: ["Unregistered": Int64.random(in: 0..<5, using: &rng)])))
            }
            let chunks = stride(from: 0, to: events.count, by: 17).map { Array(events[$0..<min($0 + 17, events.count)]) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for chunk in chunks {
                    group.addTask { _ = try await store.ingest(chunk) }
                }
                for registration in registrations {
                    group.addTask { try await store.register(registration) }
                }
                try await group.waitForAll()
            }

            let raw = try await store.textRows("""
                SELECT push_id, kind, action, device_id, receipt_id, duplicate, event_time, received_at, media, extension_ms
                FROM events ORDER BY \(storeKind == .sqlite ? "rowid" : "id")
                """
            ).map { row in
                RawRow(
                    pushID: row[0]!, kind: EventKind(rawValue: Int(row[1]!)!)!, action: row[2]!, deviceID: row[3],
                    receiptID: row[4], duplicate: row[5] == "1", eventTime: Int64(row[6]!)!, receivedAt: Int64(row[7]!)!,
                    media: row[8].flatMap(ReceiptMedia.init(rawValue:)), extensionMillis: row[9].flatMap { Int64($0) })
            }
            #expect(raw.count == events.count, "seed \(seed)")

            // Replaying the stored order through the dedupe rule gives the same duplicate flags.
            var seen: Set<String> = []
            for row in raw {
                let scope = "\(row.pushID)|\(row.kind)|\(row.action)"
                var keys: [String] = []
                if let r = row.receiptID { keys.append("\(scope)|r|\(r)") }
                if let d = row.deviceID { keys.append("\(scope)|d|\(d)") }
                let duplicate = keys.contains { seen.contains($0) }
                seen.formUnion(keys)
                #expect(duplicate == row.duplicate, "seed \(seed)")
            }

            // Recount per campaign from raw rows and send records, and compare with the report.
            let campaignOf = Dictionary(uniqueKeysWithValues: registrations.map { ($0.pushID, $0.campaign) })
            var expected: [String?: Funnel] = [:]
            for registration in registrations {
                var funnel = Funnel()
                funnel.pushes = 1
                funnel.targeted = registration.counts.targeted
                funnel.sent = registration.counts.sent
                if registration.sentAtMillis != nil { funnel.sentTimed = registration.counts.sent }
                for (reason, count) in registration.counts.failed where count > 0 { funnel.addFailures(reason: reason, count: count) }
                expected[registration.campaign, default: Funnel()].add(funnel)
            }
            var orphanPushes: Set<String> = []
            let sentAtOf = Dictionary(uniqueKeysWithValues: registrations.map { ($0.pushID, $0.sentAtMillis) })
            let window = store.configuration.maturityWindowMillis
            for row in raw {
                let push = row.pushID
                let campaign = campaignOf[push]
                if campaign == nil { orphanPushes.insert(push) }
                var funnel = Funnel()
                let count = EventCount(total: 1, duplicates: row.duplicate ? 1 : 0)
                if row.kind == .display {
                    funnel.displays = count
                    // Media outcome and extension time of unique displays; a receipt that says neither is in no count.
                    if !row.duplicate { funnel.media.add(row.media, extensionMillis: row.extensionMillis) }
                    // Time to display and lateness, recounted from raw rows, whenever the push was registered.
                    if let sentAt = sentAtOf[push] ?? nil, !row.duplicate {
                        let seconds = floorSeconds(row.eventTime) * 1000
                        funnel.latency.add(bucket: LatencyHistogram.bucket(ofMillis: seconds - sentAt), count: 1)
                        if floorSeconds(row.receivedAt) * 1000 > sentAt + window { funnel.late = 1 }
                    }
                } else {
                    funnel.actions[row.action] = count
                }
                expected[campaign, default: Funnel()].add(funnel)
            }
            expected[nil]?.pushes = orphanPushes.count

            let report = try CampaignsReport.rows(try await store.pushFigures())
            #expect(report.count == expected.count, "seed \(seed)")
            for row in report {
                let want = try #require(expected[row.campaign], "seed \(seed): unexpected row \(String(describing: row.campaign))")
                #expect(row.funnel == want, "seed \(seed) campaign \(String(describing: row.campaign))")
            }
            // The 15-minute rollups add up to the per-push rollups.
            #expect(try await store.integers("SELECT CAST(SUM(total) AS BIGINT) FROM rollup_bucket") == [Int64(events.count)])
            #expect(try await store.integers("SELECT CAST(SUM(total) AS BIGINT) FROM rollup_push") == [Int64(events.count)])
        }
    }
}
