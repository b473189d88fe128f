import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// Send records that name a platform: a split by platform moves each record's sends and failures whole to its
/// platform's row, so each row's `sent`, failures and `display_rate` equal a recount of the stored records, and
/// the rows add up to the campaign's totals (nothing counted twice).
@Suite struct SendPlatformStoreTests {
    struct Sends: Equatable {
        var targeted: Int64 = 0
        var sent: Int64 = 0
        var failed: [String: Int64] = [:]
    }

    /// The stored send records recounted per campaign and platform (`unknown` for records that named none).
    static func recount(_ store: any TestStore) async throws -> [String: [String: Sends]] {
        var sends: [String: [String: Sends]] = [:]
        for row in try await store.textRows(
            """
            SELECT p.campaign, COALESCE(n.platform, 'unknown'), s.targeted, s.sent FROM push_sends s
            JOIN pushes p ON p.push_id = s.push_id
            LEFT JOIN push_send_platforms n ON n.push_id = s.push_id AND n.batch_id = s.batch_id
            """)
        {
            sends[row[0]!, default: [:]][row[1]!, default: Sends()].targeted += Int64(row[2]!)!
            sends[row[0]!, default: [:]][row[1]!, default: Sends()].sent += Int64(row[3]!)!
        }
        for row in try await store.textRows(
            """
            SELECT p.campaign, COALESCE(n.platform, 'unknown'), f.reason, f.count FROM push_failures f
            JOIN pushes p ON p.push_id = f.push_id
            LEFT JOIN push_send_platforms n ON n.push_id = f.push_id AND n.batch_id = f.batch_id
            """)
        {
            sends[row[0]!, default: [:]][row[1]!, default: Sends()].failed[row[2]!, default: 0] += Int64(row[3]!)!
        }
        return sends
    }

    static func reported(_ rows: [CampaignRow]) -> [String: [String: Sends]] {
        var sends: [String: [String: Sends]] = [:]
        for row in rows {
            guard let campaign = row.campaign, case .text(let platform?) = row.attribute else { continue }
            let funnel = row.funnel
            guard funnel.targeted != 0 || funnel.sent != 0 || !funnel.failedByReason.isEmpty else { continue }
            sends[campaign, default: [:]][platform] = Sends(targeted: funnel.targeted, sent: funnel.sent, failed: funnel.failedByReason)
        }
        return sends
    }

    /// A campaign sent to iOS (one registration naming `ios`) and Android (a parallel sender's batch naming
    /// `android`, and one naming nothing), with receipts from both.
    static func launch(_ store: any TestStore) async throws {
        _ = try await store.register(PushRegistration(
            pushID: "launch-ios", campaign: "launch", sentAtMillis: 1_700_000_000_000,
            counts: SendCounts(targeted: 110, sent: 100, failed: ["BadDeviceToken": 3], platform: "ios")))
        _ = try await store.register(PushRegistration(pushID: "launch-android", campaign: "launch", sentAtMillis: 1_700_000_000_000))
        try await store.addSends(SendBatch(
            pushID: "launch-android", batchID: "fcm-1",
            counts: SendCounts(targeted: 85, sent: 80, failed: ["UNREGISTERED": 2], platform: "android")))
        try await store.addSends(SendBatch(pushID: "launch-android", batchID: "legacy", counts: SendCounts(targeted: 5, sent: 5)))
        var events: [IncomingEvent] = []
        for index in 0..<60 {
            events.append(IncomingEvent(pushID: "launch-ios", kind: .display, receiptID: "i-\(index)", platform: "ios"))
        }
        for index in 0..<50 {
            events.append(IncomingEvent(pushID: "launch-android", kind: .display, receiptID: "a-\(index)", platform: "android"))
        }
        // Retries count once.
        events.append(IncomingEvent(pushID: "launch-ios", kind: .display, receiptID: "i-0", platform: "ios"))
        events.append(IncomingEvent(pushID: "launch-android", kind: .display, receiptID: "a-0", platform: "android"))
        _ = try await store.ingest(events)
    }

    @Test(arguments: StoreKind.allCases) func platformRowsCountTheirRecordsSendsAndDisplayRates(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Self.launch(store)
            let rows = try await store.campaignRows(ReportFilter(), by: .platform)
            let expected = try await Self.recount(store)
            #expect(Self.reported(rows) == expected)
            #expect(Set(expected["launch"]!.keys) == ["ios", "android", "unknown"])

            let row = { (platform: String) in rows.first { $0.campaign == "launch" && $0.attribute == .text(platform) }! }
            #expect(row("ios").funnel.displayRate == 60.0 / 100)
            #expect(row("android").funnel.displayRate == 50.0 / 80)
            #expect(row("ios").funnel.pushes == 1 && row("android").funnel.pushes == 1)

            // Nothing counted twice: the rows add up to the campaign's totals.
            let whole = try #require(try await store.campaignRows(ReportFilter(), by: nil).first { $0.campaign == "launch" })
            let split = rows.filter { $0.campaign == "launch" }
            #expect(split.reduce(Int64(0)) { $0 + $1.funnel.sent } == whole.funnel.sent)
            #expect(split.reduce(Int64(0)) { $0 + $1.funnel.targeted } == whole.funnel.targeted)
            #expect(split.reduce(Int64(0)) { $0 + $1.funnel.failed } == whole.funnel.failed)
            #expect(whole.funnel.sent == 185 && whole.funnel.failed == 5)

            // One platform's rows alone, and one push narrowed to it.
            let android = try await store.campaignRows(ReportFilter(platform: "android"), by: nil)
            #expect(android.map(\.funnel.sent) == [80] && android.map(\.funnel.displayRate) == [50.0 / 80])
            let unknown = try await store.campaignRows(ReportFilter(platform: "unknown"), by: nil)
            #expect(unknown.map(\.funnel.sent) == [5] && unknown.map(\.funnel.failed) == [0])
            let push = try await store.supersededPushFigures(ReportFilter(pushID: "launch-ios", platform: "ios"))
            #expect(push.map(\.funnel.sent) == [100] && push.map(\.funnel.failedByReason) == [["BadDeviceToken": 3]])
            let rest = try await store.supersededPushFigures(ReportFilter(pushID: "launch-ios", platform: "unknown"))
            #expect(rest.map(\.funnel.sent) == [0] && rest.map(\.funnel.failed) == [0])

            // The same in the report's table: display_rate per platform, not null.
            let table = try await store.report(ReportRequest(.campaigns(by: .platform)))
            let rates = zip(table.values(of: "platform"), table.values(of: "display_rate"))
            #expect(rates.contains { $0 == .text("ios") && $1 == .rate(0.6) })
            #expect(rates.contains { $0 == .text("android") && $1 == .rate(0.625) })
        }
    }

    @Test(arguments: StoreKind.allCases) func aRecordReplacedWithoutAPlatformGoesBackToUnknown(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Self.launch(store)
            _ = try await store.register(PushRegistration(
                pushID: "launch-ios", campaign: "launch", counts: SendCounts(targeted: 110, sent: 100, failed: ["BadDeviceToken": 3])))
            try await store.addSends(SendBatch(
                pushID: "launch-android", batchID: "legacy", counts: SendCounts(targeted: 5, sent: 5, platform: "android")))
            let rows = try await store.campaignRows(ReportFilter(), by: .platform)
            #expect(Self.reported(rows) == (try await Self.recount(store)))
            let sent = Dictionary(uniqueKeysWithValues: rows.compactMap { row -> (String, Int64)? in
                guard case .text(let platform?) = row.attribute else { return nil }
                return (platform, row.funnel.sent)
            })
            #expect(sent == ["ios": 0, "android": 85, "unknown": 100])
            #expect(try await store.textRows("SELECT batch_id FROM push_send_platforms WHERE push_id = 'launch-ios'").isEmpty)
        }
    }
}
