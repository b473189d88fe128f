import Foundation
import PushTallyCore
import PushTallyStores
import PushTallyTestSupport
import Testing

/// Superseded pushes as each store's reports show them: the peers read (``ReportReader/collapsePeers(_:)``)
/// reach across campaigns and filters, and campaign rows count them and split the loss.
@Suite struct SupersedingStoreTests {
    static let minute: Int64 = 60_000
    static let app = "com.example"

    /// A registered push `minutes` after `start`, sent to `sent` devices.
    static func push(
        _ id: String, _ campaign: String, start: Int64, minutes: Int64?, app: String? = app, collapse: String? = "news",
        expiresAfter: Int64? = nil, priority: Int? = nil, sent: Int64 = 4
    ) -> PushRegistration {
        PushRegistration(
            pushID: id, campaign: campaign, sentAtMillis: minutes.map { start + $0 * minute }, app: app,
            counts: SendCounts(targeted: sent, sent: sent),
            attributes: SendAttributes(
                collapseID: collapse, priority: priority,
                expirationMillis: expiresAfter.map { $0 == 0 ? 0 : start + $0 * minute }))
    }

    /// Pushes that exercise every case: p1 is superseded by p2 (the earliest of p2, p3, p4, in another
    /// campaign); p2 expired before p3; p3 has expiration 0; p5 is another app, p6 another collapse id, p8 has
    /// no sent_at; p9 is superseded by p10 before its expiration.
    static func seed(_ store: any TestStore) async throws -> Int64 {
        let start = StoreConfiguration.systemClock() - 3_600_000
        let pushes = [
            push("p1", "morning", start: start, minutes: 0, priority: 10, sent: 10),
            push("p2", "evening", start: start, minutes: 5, expiresAfter: 6, priority: 5),
            push("p3", "evening", start: start, minutes: 10, expiresAfter: 0),
            push("p4", "morning", start: start, minutes: 12, priority: 10),
            push("p5", "morning", start: start, minutes: 1, app: "com.other"),
            push("p6", "morning", start: start, minutes: 2, collapse: "sports"),
            push("p8", "morning", start: start, minutes: nil),
            push("p9", "evening", start: start, minutes: 20, collapse: "promo", expiresAfter: 40),
            push("p10", "evening", start: start, minutes: 30, collapse: "promo"),
        ]
        for push in pushes { _ = try await store.register(push) }
        // Three of p1's ten devices showed it; p9 showed on all four.
        let displays = (1...3).map { IncomingEvent(pushID: "p1", kind: .display, deviceID: "d\($0)", deviceTimeMillis: start + 1000) }
            + (1...4).map { IncomingEvent(pushID: "p9", kind: .display, deviceID: "d\($0)", deviceTimeMillis: start + 21 * minute) }
        _ = try await store.ingest(displays)
        return start
    }

    /// The report's rows keyed by their first column's text.
    static func rows(_ table: ReportTable) -> [String: [String: ReportValue]] {
        var rows: [String: [String: ReportValue]] = [:]
        for row in table.rows {
            guard case .text(let key) = row[0].1 else { continue }
            rows[key ?? ""] = Dictionary(row, uniquingKeysWith: { first, _ in first })
        }
        return rows
    }

    @Test(arguments: StoreKind.allCases)
    func pushRowsNameTheEarliestSupersedingPushInTime(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await Self.seed(store)
            let rows = Self.rows(try await store.report(ReportRequest(.pushes(orphan: nil))))
            #expect(rows["p1"]?["superseded_by"] == .text("p2"))
            #expect(rows["p1"]?["superseded_after_s"] == .seconds(300))
            #expect(rows["p1"]?["superseded_loss"] == .integer(7))
            #expect(rows["p1"]?["unexplained_loss"] == .integer(0))
            #expect(rows["p9"]?["superseded_by"] == .text("p10"))
            #expect(rows["p9"]?["superseded_after_s"] == .seconds(600))
            // Shown everywhere: superseded, but nothing lost to it.
            #expect(rows["p9"]?["superseded_loss"] == .integer(0))
            for id in ["p2", "p3", "p4", "p5", "p6", "p8", "p10"] {
                #expect(rows[id]?["superseded_by"] == .text(nil), "\(id)")
                #expect(rows[id]?["superseded_after_s"] == .seconds(nil), "\(id)")
                #expect(rows[id]?["superseded_loss"] == .integer(0), "\(id)")
            }
            #expect(rows["p2"]?["unexplained_loss"] == .integer(4))
        }
    }

    /// The superseding push is in another campaign, outside the filter: a campaign's drill-down, one push's
    /// report and an app-filtered list still find it.
    @Test(arguments: StoreKind.allCases)
    func supersedingReachesAcrossCampaignsAndFilters(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let start = try await Self.seed(store)
            let requests = [
                ReportRequest(.campaign("morning")), ReportRequest(.push("p1")),
                ReportRequest(.pushes(orphan: nil), filter: ReportFilter(campaign: "morning", app: Self.app)),
                ReportRequest(.pushes(orphan: nil), filter: ReportFilter(toMillis: start + 1)),
            ]
            for request in requests {
                let rows = Self.rows(try await store.report(request))
                #expect(rows["p1"]?["superseded_by"] == .text("p2"), "\(request)")
                #expect(rows["p2"] == nil, "\(request)")
            }
            let peers = try await store.collapsePeers(ReportFilter(campaign: "morning"))
            #expect(Set(peers.map(\.pushID)) == ["p1", "p2", "p3", "p4", "p5", "p6"])
            #expect(try await store.collapsePeers(ReportFilter(pushID: "p9")).map(\.pushID).sorted() == ["p10", "p9"])
            #expect(try await store.collapsePeers(ReportFilter()).count == 9 - 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func campaignRowsCountSupersededPushesAndSplitTheLoss(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await Self.seed(store)
            let rows = Self.rows(try await store.report(ReportRequest(.campaigns)))
            // morning: p1 (10 sent, 3 shown, superseded), p4, p5, p6, p8 (4 sent each, none shown).
            #expect(rows["morning"]?["superseded_pushes"] == .integer(1))
            #expect(rows["morning"]?["superseded_loss"] == .integer(7))
            #expect(rows["morning"]?["unexplained_loss"] == .integer(26 - 3 - 7))
            // evening: p9 superseded with everything shown; p2, p3, p10 lost 12 with no explanation.
            #expect(rows["evening"]?["superseded_pushes"] == .integer(1))
            #expect(rows["evening"]?["superseded_loss"] == .integer(0))
            #expect(rows["evening"]?["unexplained_loss"] == .integer(12))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func campaignsSplitByPriorityAndByPushType(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await Self.seed(store)
            let table = try await store.report(ReportRequest(.campaigns(by: .priority)))
            let cells = table.rows.map { row in [row[0].1, row[1].1] }
            #expect(table.rows.allSatisfy { $0[1].0 == "priority" })
            #expect(cells == [
                [.text("evening"), .optionalInteger(5)], [.text("evening"), .optionalInteger(nil)],
                [.text("morning"), .optionalInteger(10)], [.text("morning"), .optionalInteger(nil)],
            ])
            #expect(table.values(of: "pushes") == [.integer(1), .integer(3), .integer(2), .integer(3)])
            #expect(table.values(of: "superseded_pushes") == [.integer(0), .integer(1), .integer(1), .integer(0)])
            let byType = try await store.report(ReportRequest(.campaigns(by: .pushType)))
            #expect(byType.rows.map { $0[1].0 } == ["push_type", "push_type"])
            #expect(byType.values(of: "push_type") == [.text(nil), .text(nil)])
        }
    }

    /// The peers are looked up by `(app, collapse_id, sent_at)`, not by scanning every push.
    @Test(arguments: StoreKind.allCases)
    func pushesHaveTheCollapseIndex(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let sql = kind == .sqlite
                ? "SELECT sql FROM sqlite_master WHERE name = 'pushes_collapse'"
                : "SELECT indexdef FROM pg_indexes WHERE indexname = 'pushes_collapse'"
            let definition = try await store.column(sql).first ?? nil
            #expect(definition?.contains("(app, collapse_id, sent_at)") == true, "\(String(describing: definition))")
        }
    }
}
