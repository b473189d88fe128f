import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// The campaigns report split by platform (`by=platform`) and narrowed to one (`platform=`): each row's
/// receipts and actions equal a recount of the stored events of its campaign and platform.
@Suite struct CampaignPlatformStoreTests {
    /// A row's event counts, by kind and action (displays under `display`), without empty ones.
    typealias Counts = [String: EventCount]

    struct Key: Hashable {
        var campaign: String?
        var platform: String
    }

    static func counts(_ funnel: Funnel) -> Counts {
        var counts: Counts = ["display": funnel.displays]
        for (action, count) in funnel.actions { counts["action:\(action)"] = count }
        return counts.filter { $0.value != EventCount() }
    }

    /// The raw events recounted per campaign (`nil`: orphans) and platform (`unknown` when none was named).
    static func recount(_ store: any TestStore, campaigns: [String: String]) async throws -> [Key: Counts] {
        var rows: [Key: Counts] = [:]
        for row in try await store.textRows("SELECT push_id, kind, action, platform, duplicate FROM events") {
            let key = Key(campaign: campaigns[row[0]!], platform: row[3] ?? ReportGrouping.unknownPlatform)
            let column = row[1] == "0" ? "display" : "action:\(row[2]!)"
            rows[key, default: [:]][column, default: EventCount()].total += 1
            if row[4] == "1" { rows[key, default: [:]][column, default: EventCount()].duplicates += 1 }
        }
        return rows
    }

    static func reported(_ rows: [CampaignRow]) -> [Key: Counts] {
        var reported: [Key: Counts] = [:]
        for row in rows {
            guard case .text(let platform?) = row.attribute else { continue }
            let counts = Self.counts(row.funnel)
            if !counts.isEmpty { reported[Key(campaign: row.campaign, platform: platform)] = counts }
        }
        return reported
    }

    @Test(arguments: StoreKind.allCases) func rowsByPlatformEqualARecountOfTheStoredEvents(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let campaigns = ["web-1": "web-sale", "web-2": "web-sale", "ios-1": "ios-sale"]
            for (push, campaign) in campaigns.sorted(by: { $0.key < $1.key }) {
                _ = try await store.register(PushRegistration(
                    pushID: push, campaign: campaign, counts: SendCounts(targeted: 20, sent: 10, failed: [:]),
                    attributes: SendAttributes(priority: push == "web-2" ? 5 : 10)))
            }
            var events: [IncomingEvent] = []
            let platforms: [String?] = ["web", "ios", "android", "kaios", nil]
            for index in 0..<30 {
                let push = ["web-1", "web-2", "ios-1", "orphan"][index % 4]
                let platform = platforms[index % platforms.count]
                let display = IncomingEvent(pushID: push, kind: .display, receiptID: "d-\(index)", platform: platform)
                events += index % 3 == 0 ? [display, display] : [display]
                if index % 2 == 0 {
                    events.append(IncomingEvent(
                        pushID: push, kind: .action, action: index % 4 == 0 ? "open" : "dismiss", receiptID: "a-\(index)",
                        platform: platform))
                }
            }
            _ = try await store.ingest(events)

            let rows = try await store.campaignRows(ReportFilter(), by: .platform)
            let expected = try await Self.recount(store, campaigns: campaigns)
            #expect(Self.reported(rows) == expected)
            #expect(Set(expected.keys.map(\.platform)) == ["web", "ios", "android", "kaios", "unknown"])
            // Sends are per push, not per platform: they stay in the campaign's unknown row.
            for row in rows where row.campaign != nil {
                #expect(row.funnel.sent == (row.attribute == .text("unknown") ? Int64(row.campaign == "web-sale" ? 20 : 10) : 0))
            }
            // Without a split the rows hold the same events, summed.
            let whole = try await store.campaignRows(ReportFilter(), by: nil)
            for row in whole {
                let split = rows.filter { $0.campaign == row.campaign }
                #expect(split.reduce(Int64(0)) { $0 + $1.funnel.displays.total } == row.funnel.displays.total)
            }

            // A platform filter keeps that platform's rows, with no platform column.
            for platform in ["web", "kaios", "unknown"] {
                let filtered = try await store.campaignRows(ReportFilter(platform: platform), by: nil)
                #expect(filtered.map(\.campaign) == rows.filter { $0.attribute == .text(platform) }.map(\.campaign))
                #expect(filtered.map { Self.counts($0.funnel) } == rows.filter { $0.attribute == .text(platform) }.map { Self.counts($0.funnel) })
            }
            // A time range picks the pushes (here every one, or none), then their events split as without one.
            let ranged = try await store.campaignRows(ReportFilter(fromMillis: 0), by: .platform)
            #expect(ranged.map(\.campaign) == rows.map(\.campaign) && ranged.map { Self.counts($0.funnel) } == rows.map { Self.counts($0.funnel) })
            #expect(try await store.campaignRows(ReportFilter(toMillis: 1, platform: "web"), by: nil).isEmpty)

            // Split by an APNs attribute and narrowed to a platform: each push's events under its own attribute.
            let webByPriority = try await store.campaignRows(ReportFilter(platform: "web"), by: .priority)
            let webEvents = try await store.textRows("SELECT push_id, kind FROM events WHERE platform = 'web' AND kind = 0")
            for (priority, pushes) in [(Int64(5), ["web-2"]), (10, ["web-1", "ios-1"])] {
                let rows = webByPriority.filter { $0.attribute == .optionalInteger(priority) }
                #expect(rows.reduce(Int64(0)) { $0 + $1.funnel.displays.total } == Int64(webEvents.filter { pushes.contains($0[0]!) }.count))
            }

            let table = try await store.report(ReportRequest(.campaigns(by: .platform)))
            let csv = CSVRenderer.render(table)
            #expect(csv.hasPrefix("campaign,platform,pushes,"))
        }
    }
}
