import Foundation
import PushTallyCore
import PushTallyStores
import PushTallyTestSupport
import Testing

/// The campaign list summed as rows are read (``CampaignListAssembly``) gives the rows of every push's figures
/// grouped (``CampaignsReport/rows(_:by:)``), on varied random data, under each filter and grouping.
@Suite struct CampaignRowsPathTests {
    static let seeds: [UInt64] = [7, 11, 2026]
    static let app = "com.example.app"

    @Test(arguments: StoreKind.allCases, seeds) func summedRowsEqualGroupedFigures(kind: StoreKind, seed: UInt64) async throws {
        var rng = SplitMix64(state: seed)
        try await withStore(kind) { store in
            let now = StoreConfiguration.systemClock() / 1000 * 1000
            let start = now - 2 * 86_400_000
            let pushIDs = (0..<12).map { "push-\($0)" }
            // The last two stay orphans; the others share a few collapse ids, and push-0 is always superseded
            // by push-1 (same app and collapse id, sent later, neither expiring).
            for (number, id) in pushIDs.dropLast(2).enumerated() {
                let certain = number < 2
                let failures = ["Unregistered", "BadDeviceToken", "PayloadTooLarge", "Other"].filter { _ in Bool.random(using: &rng) }
                _ = try await store.register(PushRegistration(
                    pushID: id, campaign: ["spring", "autumn", "winter"].randomElement(using: &rng)!,
                    sentAtMillis: number % 4 == 3 ? nil : start + Int64(number) * 60_000,
                    app: certain ? Self.app : [Self.app, Self.app, "com.other", nil].randomElement(using: &rng)!,
                    environment: ["production", "sandbox", nil].randomElement(using: &rng)!,
                    counts: SendCounts(
                        targeted: Int64.random(in: 0..<300, using: &rng), sent: Int64.random(in: 0..<200, using: &rng),
                        failed: Dictionary(uniqueKeysWithValues: failures.map { ($0, Int64.random(in: 0..<9, using: &rng)) })),
                    attributes: SendAttributes(
                        collapseID: certain ? "news" : ["news", "promo", nil].randomElement(using: &rng)!,
                        priority: [5, 10, nil].randomElement(using: &rng)!,
                        pushType: ["alert", "background", nil].randomElement(using: &rng)!,
                        expirationMillis: certain || Bool.random(using: &rng) ? nil : start + Int64.random(in: 0..<30, using: &rng) * 60_000)))
            }
            var events: [IncomingEvent] = []
            for _ in 0..<300 {
                let push = pushIDs.randomElement(using: &rng)!
                let device = "dev-\(Int.random(in: 0..<20, using: &rng))"
                let time = start + Int64.random(in: 0..<(3 * 86_400), using: &rng) * 1000
                switch Int.random(in: 0..<6, using: &rng) {
                case 0...2:
                    events.append(IncomingEvent(pushID: push, kind: .display, deviceID: device, deviceTimeMillis: time))
                case 3:
                    events.append(IncomingEvent(
                        pushID: push, kind: .action, action: ["open", "dismiss", "reply"].randomElement(using: &rng)!,
                        deviceID: device, deviceTimeMillis: time))
                case 4:
                    events.append(.session(deviceID: device, sessionID: "s-\(events.count)", deviceTimeMillis: time, app: Self.app))
                default:
                    events.append(.conversion(
                        deviceID: device, name: "purchase", valueMicros: Int64.random(in: 1..<5_000_000, using: &rng),
                        currency: ["USD", "EUR"].randomElement(using: &rng)!, conversionID: "c-\(events.count)",
                        deviceTimeMillis: time))
                }
            }
            for chunk in stride(from: 0, to: events.count, by: 25) {
                _ = try await store.ingest(Array(events[chunk..<min(chunk + 25, events.count)]))
            }

            let filters = [
                ReportFilter(), ReportFilter(campaign: "spring"), ReportFilter(campaign: "none"), ReportFilter(pushID: "push-3"),
                ReportFilter(pushID: "push-11"), ReportFilter(app: Self.app), ReportFilter(environment: "production"),
                ReportFilter(campaign: "autumn", app: Self.app, environment: "sandbox"),
                ReportFilter(fromMillis: start + 120_000, toMillis: start + 400_000),
            ]
            for filter in filters {
                for grouping in [nil] + ReportGrouping.allCases {
                    let summed = try await store.campaignRows(filter, by: grouping)
                    let grouped = try CampaignsReport.rows(try await store.supersededPushFigures(filter), by: grouping)
                    #expect(summed == grouped, "seed \(seed) filter \(filter) by \(String(describing: grouping))")
                    // Read a campaign and an orphan rollup row a page, the rows are the same, in the same order.
                    for perPage in [1, 2, 1000] {
                        var pager = CampaignPager(filter, by: grouping, campaignsPerPage: perPage, orphanRowsPerPage: perPage)
                        var paged: [CampaignRow] = []
                        while let rows = try await pager.nextRows(from: store) { paged += rows }
                        #expect(
                            paged.map(\.withoutOrphanIDs) == summed.map(\.withoutOrphanIDs),
                            "seed \(seed) filter \(filter) by \(String(describing: grouping)), \(perPage) a page")
                    }
                }
            }
            // The data reach every part of a row: orphans, supersession, failures, actions, latency and outcomes.
            let rows = try await store.campaignRows(ReportFilter(), by: nil)
            #expect(rows.last?.isOrphan == true, "seed \(seed)")
            #expect(rows.contains { $0.funnel.supersededPushes > 0 }, "seed \(seed)")
            #expect(rows.contains { $0.funnel.failedOther > 0 }, "seed \(seed)")
            #expect(rows.contains { $0.funnel.customActions["reply"] != nil }, "seed \(seed)")
            #expect(rows.contains { $0.funnel.latency.total > 0 }, "seed \(seed)")
            #expect(rows.contains { $0.funnel.outcomes.influencedOpens + $0.funnel.outcomes.conversions > 0 }, "seed \(seed)")
        }
    }
}

extension CampaignRow {
    /// The row without the unregistered push ids an orphan row lists: a report read a page at a time sums the
    /// orphans' pages into one row and does not keep their ids, which no report shows.
    var withoutOrphanIDs: CampaignRow {
        guard isOrphan else { return self }
        var row = self
        row.pushIDs = []
        return row
    }
}
