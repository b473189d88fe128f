import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// The per-push reports narrowed to one platform (`platform=` on pushes, push and campaign): each push's
/// receipts and actions equal a recount of its stored events from that platform (`unknown`: those that named
/// none), its per-push figures stay with `unknown`, through pruning into the ledger and a rebuild.
@Suite struct PushPlatformStoreTests {
    static let platforms = ["ios", "android", "web", "kaios", ReportGrouping.unknownPlatform]
    static let campaigns = ["p-1": "sale", "p-2": "sale", "p-3": "news"]

    /// A push's event counts by kind and action (displays under `display`), without empty ones.
    typealias Counts = [String: EventCount]

    struct Key: Hashable {
        var pushID: String
        var platform: String
    }

    /// Receipts and actions from every platform and none, with retries, across hours of event time.
    static func events(now: Int64) -> [IncomingEvent] {
        let sent: [String?] = ["ios", "android", "web", "kaios", nil, "ios", "web"]
        var events: [IncomingEvent] = []
        for index in 0..<42 {
            let push = ["p-1", "p-2", "p-3", "orphan"][index % 4]
            let platform = sent[index % sent.count]
            let time = now - Int64(index % 5) * 3_600_000 - Int64(index) * 60_000
            let display = IncomingEvent(
                pushID: push, kind: .display, receiptID: "d-\(index)", deviceTimeMillis: time, platform: platform)
            events += index % 3 == 0 ? [display, display] : [display]
            if index % 2 == 0 {
                events.append(IncomingEvent(
                    pushID: push, kind: .action, action: ["open", "dismiss", "reply"][index % 3], receiptID: "a-\(index)",
                    deviceTimeMillis: time, platform: platform))
            }
        }
        return events
    }

    static func counts(_ funnel: Funnel) -> Counts {
        var counts: Counts = ["display": funnel.displays]
        for (action, count) in funnel.actions { counts["action:\(action)"] = count }
        return counts.filter { $0.value != EventCount() }
    }

    /// The stored events recounted per push and platform (`unknown` when none was named).
    static func recount(_ store: any TestStore) async throws -> [Key: Counts] {
        var counts: [Key: Counts] = [:]
        for row in try await store.textRows("SELECT push_id, kind, action, platform, duplicate FROM events") {
            let key = Key(pushID: row[0]!, platform: row[3] ?? ReportGrouping.unknownPlatform)
            let column = row[1] == "0" ? "display" : "action:\(row[2]!)"
            counts[key, default: [:]][column, default: EventCount()].total += 1
            if row[4] == "1" { counts[key, default: [:]][column, default: EventCount()].duplicates += 1 }
        }
        return counts
    }

    static func register(_ store: any TestStore) async throws {
        for (push, campaign) in campaigns.sorted(by: { $0.key < $1.key }) {
            _ = try await store.register(PushRegistration(
                pushID: push, campaign: campaign, sentAtMillis: StoreConfiguration.systemClock() - 86_400_000,
                counts: SendCounts(targeted: 20, sent: 10, failed: ["Unregistered": 2])))
        }
    }

    /// What every platform's filtered per-push reports show, keyed by push and platform.
    static func reported(_ store: any TestStore) async throws -> [Key: Counts] {
        var reported: [Key: Counts] = [:]
        for platform in platforms {
            let figures = try await store.supersededPushFigures(ReportFilter(platform: platform))
            for push in figures {
                let counts = Self.counts(push.funnel)
                if !counts.isEmpty { reported[Key(pushID: push.pushID, platform: platform)] = counts }
                // Sends and failures belong to the push, kept with unknown.
                let own = platform == ReportGrouping.unknownPlatform && !push.isOrphan
                #expect(push.funnel.sent == (own ? 10 : 0) && push.funnel.failed == (own ? 2 : 0), "\(push.pushID) \(platform)")
                #expect(push.funnel.pushes == 1)
            }
            // The push and campaign drill-downs give the same rows as the list, one push or campaign at a time.
            let listed = try await store.report(ReportRequest(.pushes(orphan: nil), filter: ReportFilter(platform: platform)))
            #expect(listed.values(of: "push_id") == figures.map { ReportValue?.some(.text($0.pushID)) })
            for push in figures {
                let one = try await store.report(ReportRequest(.push(push.pushID), filter: ReportFilter(platform: platform)))
                #expect(one.rows.count == 1 && one.values(of: "displayed") == [.integer(push.funnel.displayed)])
                #expect(one.values(of: "sent") == [.integer(push.funnel.sent)])
            }
            for campaign in Set(campaigns.values) {
                let drill = try await store.report(ReportRequest(.campaign(campaign), filter: ReportFilter(platform: platform)))
                let expected = figures.filter { $0.campaign == campaign }
                #expect(drill.values(of: "push_id") == expected.map { ReportValue?.some(.text($0.pushID)) })
                #expect(drill.values(of: "opened") == expected.map { ReportValue?.some(.integer($0.funnel.opened)) })
                #expect(drill.values(of: "display_rate") == expected.map { ReportValue?.some(.rate($0.funnel.displayRate)) })
            }
        }
        return reported
    }

    @Test(arguments: StoreKind.allCases) func perPushReportsByPlatformEqualARecountThroughPruneAndRebuild(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Self.register(store)
            _ = try await store.ingest(Self.events(now: StoreConfiguration.systemClock()))
            let expected = try await Self.recount(store)
            #expect(Set(expected.keys.map(\.platform)) == Set(Self.platforms))
            #expect(try await Self.reported(store) == expected)

            // A known push none of whose events named a platform has no row; an unknown one is still not found.
            let none = try await store.report(ReportRequest(.push("p-1"), filter: ReportFilter(platform: "tizen")))
            #expect(none.rows.isEmpty)
            await #expect(throws: ReportNotFound.self) {
                _ = try await store.report(ReportRequest(.push("nobody"), filter: ReportFilter(platform: "ios")))
            }
            // Under a platform filter the unknown rows add back to the whole push.
            let whole = try await store.supersededPushFigures(ReportFilter())
            for push in whole {
                let split = expected.filter { $0.key.pushID == push.pushID }.values
                #expect(split.reduce(Int64(0)) { $0 + ($1["display"]?.total ?? 0) } == push.funnel.displayed)
            }

            #expect(try await store.prune(receivedBefore: StoreConfiguration.systemClock() + 86_400_000, batchSize: 9) > 0)
            #expect(try await Self.reported(store) == expected, "pruned events count in the ledger by platform")
            try await store.rebuildRollups()
            #expect(try await Self.reported(store) == expected, "a rebuild keeps them")
        }
    }
}
