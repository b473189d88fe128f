import Testing

@testable import PushTallyCore
import PushTallyTestSupport

/// The campaign list summed while rows are read equals the figures assembled per push and then grouped, for
/// rows in any order, orphans, pushes the filter leaves out (a time range included), groupings and superseded
/// pushes.
@Suite struct CampaignListAssemblyTests {
    /// Feeds `sink` registered pushes p1...p6 (not in id order), with rows of every table in `order`.
    private func feed<Sink: PushRowSink>(_ sink: inout Sink, rowsOf order: [String]) {
        for (number, id) in ["p5", "p1", "p6", "p3", "p2", "p4"].enumerated() {
            sink.registered(
                pushID: id, campaign: number % 3 == 0 ? "b" : "a", title: nil, sentAtMillis: number == 2 ? nil : Int64(number),
                app: number % 2 == 0 ? "app" : nil, environment: "production",
                attributes: SendAttributes(collapseID: number < 3 ? "news" : nil, priority: number % 2 == 0 ? 10 : nil))
        }
        if sink.readsFirstEvents {
            for (step, id) in order.enumerated() where order.firstIndex(of: id) == step { sink.firstEvent(pushID: id, millis: Int64(step + 1)) }
        }
        for (step, id) in order.enumerated() {
            let n = Int64(step + 1)
            sink.sends(pushID: id, targeted: n * 3, sent: n * 2)
            sink.failures(pushID: id, reason: step % 2 == 0 ? "Unregistered" : "Rare", count: n)
            sink.rollup(pushID: id, kind: .display, action: "", count: EventCount(total: n * 2, duplicates: 1), late: 1, firstEvent: n)
            sink.rollup(pushID: id, kind: .action, action: step % 2 == 0 ? "open" : "reply", count: EventCount(total: n), late: 0, firstEvent: n)
            sink.timing(pushID: id) { $0 == step ? n : 0 }
            sink.outcome(pushID: id, measure: .directConversion, currency: "USD", count: 1, value: MoneyTotal(micros: n * 100))
        }
    }

    private func check(_ filter: ReportFilter, by grouping: ReportGrouping?, order: [String], supersessions: [String: Supersession] = [:]) throws {
        var figures = PushFiguresAssembly()
        feed(&figures, rowsOf: order)
        var list = CampaignListAssembly(filter, by: grouping)
        feed(&list, rowsOf: order)
        let expected = try CampaignsReport.rows(Superseding.apply(supersessions, to: figures.takeFigures(filter)), by: grouping)
        let got = try list.rows(supersessions: supersessions)
        #expect(got == expected, "filter \(filter) by \(String(describing: grouping)) order \(order)")
    }

    @Test func equalsGroupedFiguresWhateverTheRowOrder() throws {
        let orders = [["p1", "p2", "p3", "p4", "p5", "p6", "x1", "x2"], ["x2", "p6", "p1", "p4", "x1", "p3", "p2", "p5"]]
        for order in orders {
            for grouping in [nil] + ReportGrouping.allCases {
                try check(ReportFilter(), by: grouping, order: order)
                try check(ReportFilter(campaign: "a"), by: grouping, order: order)
                try check(ReportFilter(pushID: "x1"), by: grouping, order: order)
                try check(ReportFilter(app: "app", environment: "production"), by: grouping, order: order)
                try check(ReportFilter(fromMillis: 1, toMillis: 4), by: grouping, order: order)
                try check(ReportFilter(fromMillis: 3), by: grouping, order: order)
            }
        }
    }

    @Test func countsSupersededPushesInTheirRows() throws {
        let supersessions = ["p1": Supersession(supersededBy: "p5", afterMillis: 1), "p6": Supersession(supersededBy: "p5", afterMillis: 2)]
        try check(ReportFilter(), by: nil, order: ["p1", "p5", "p6"], supersessions: supersessions)
        var list = CampaignListAssembly(ReportFilter(app: "app"), by: nil)
        feed(&list, rowsOf: ["p1"])
        // p1 has no app: the only pushes with a collapse id the filter keeps are p5 and p6.
        #expect(list.needsSupersessions)
        var none = CampaignListAssembly(ReportFilter(pushID: "p2"), by: nil)
        feed(&none, rowsOf: [])
        #expect(!none.needsSupersessions)
    }

    @Test func readsFirstEventsOnlyForATimeRange() {
        #expect(!CampaignListAssembly(ReportFilter(campaign: "a", app: "app"), by: nil).readsFirstEvents)
        #expect(CampaignListAssembly(ReportFilter(fromMillis: 0), by: nil).readsFirstEvents)
        #expect(CampaignListAssembly(ReportFilter(toMillis: 0), by: .platform).readsFirstEvents)
    }
}
