import Foundation
import PushTallyCore
import Testing

/// What a store reports about sessions and conversions: per push (only pushes credited something), totals,
/// and the campaign and attribution reports as tables, so two stores or two moments compare with `==`.
struct AttributionSnapshot: Equatable {
    var pushes: [String: RecountFigures]
    var totals: RecountFigures
    var campaigns: ReportTable
    var attribution: ReportTable

    init(_ store: any PushTallyStore) async throws {
        pushes = [:]
        for push in try await store.pushFigures() where push.funnel.outcomes != Outcomes() {
            pushes[push.pushID] = RecountFigures(push.funnel.outcomes)
        }
        totals = RecountFigures(try await store.outcomeTotals(fromMillis: nil, toMillis: nil))
        campaigns = try await store.report(ReportRequest(.campaigns))
        attribution = try await store.report(ReportRequest(.attribution))
    }
}

/// Every push's outcomes and the totals equal the recount.
func expectFiguresMatch(
    _ snapshot: AttributionSnapshot, _ recount: AttributionRecount, pushes: [String], _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for push in Set(pushes).union(snapshot.pushes.keys).sorted() {
        let reported = snapshot.pushes[push] ?? RecountFigures()
        let expected = recount.figures(of: push)
        #expect(reported == expected, "\(context) push \(push):\n  reported \(reported)\n  recount  \(expected)", sourceLocation: sourceLocation)
    }
    #expect(
        snapshot.totals == recount.totals, "\(context) totals:\n  reported \(snapshot.totals)\n  recount  \(recount.totals)",
        sourceLocation: sourceLocation)
}

/// The campaign report's attribution columns, as a client reads them from the JSON and from the CSV, equal the
/// recount summed over each campaign's pushes; `influenced_open_rate` divides by the campaign's unique displays.
func expectCampaignReportMatches(
    _ table: ReportTable, _ recount: AttributionRecount, scenario: AttributionScenario, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let json = try ReportTable(json: JSONRenderer.render(table), shape: try ReportRequest(.campaigns).emptyTable())
    let csv = CSVParser.parse(CSVRenderer.render(table))
    let header = try #require(csv.first)
    #expect(csv.count == json.rows.count + 1, "\(context)", sourceLocation: sourceLocation)
    var currenciesShown: Set<String> = []
    for (index, cell) in json.values(of: "campaign").enumerated() {
        guard case .text(let campaign)? = cell else {
            Issue.record("\(context): row \(index) has no campaign cell", sourceLocation: sourceLocation)
            continue
        }
        var expected = RecountFigures()
        var displayedUnique: Int64 = 0
        for push in scenario.pushesByCampaign[campaign] ?? [] {
            expected.add(recount.figures(of: push))
            displayedUnique += Int64(scenario.events.filter { $0.push == push && $0.kind == .display && !$0.isRetry }.count)
        }
        let value = expected.valueDirect.merging(expected.valueInfluenced, uniquingKeysWith: +)
        currenciesShown.formUnion(value.keys)
        let integers: [(String, Int64)] = [
            ("influenced_opens", expected.influencedOpens), ("direct_opens", expected.directOpens),
            ("conversions", expected.conversionsDirect + expected.conversionsInfluenced),
            ("conversions_direct", expected.conversionsDirect), ("conversions_influenced", expected.conversionsInfluenced),
        ]
        let row = csv[index + 1]
        let label = "\(context) campaign \(campaign ?? "(orphans)")"
        for (column, number) in integers {
            #expect(json.values(of: column)[index] == .integer(number), "\(label) JSON \(column)", sourceLocation: sourceLocation)
            let position = try #require(header.firstIndex(of: column))
            #expect(row[position] == String(number), "\(label) CSV \(column)", sourceLocation: sourceLocation)
        }
        let rate = displayedUnique > 0 ? Double(expected.influencedOpens) / Double(displayedUnique) : nil
        #expect(json.values(of: "influenced_open_rate")[index] == .rate(rate), "\(label) JSON influenced_open_rate", sourceLocation: sourceLocation)
        #expect(
            json.values(of: "conversion_value")[index] == .money(value.mapValues(MoneyTotal.init(micros:)), csvPrefix: "conversion_value:"),
            "\(label) JSON conversion_value", sourceLocation: sourceLocation)
        for (position, column) in header.enumerated() where column.hasPrefix("conversion_value:") {
            let micros = value[String(column.dropFirst("conversion_value:".count))] ?? 0
            #expect(row[position] == MoneyAmount.text(micros: micros), "\(label) CSV \(column)", sourceLocation: sourceLocation)
        }
    }
    // One CSV column per currency present in any row, no more.
    let columns = Set(header.filter { $0.hasPrefix("conversion_value:") }.map { String($0.dropFirst("conversion_value:".count)) })
    #expect(columns == currenciesShown, "\(context) CSV currency columns", sourceLocation: sourceLocation)
}

extension RecountFigures {
    mutating func add(_ other: RecountFigures) {
        directOpens += other.directOpens
        influencedOpens += other.influencedOpens
        unattributedSessions += other.unattributedSessions
        conversionsDirect += other.conversionsDirect
        conversionsInfluenced += other.conversionsInfluenced
        conversionsUnattributed += other.conversionsUnattributed
        valueDirect.merge(other.valueDirect, uniquingKeysWith: +)
        valueInfluenced.merge(other.valueInfluenced, uniquingKeysWith: +)
        valueUnattributed.merge(other.valueUnattributed, uniquingKeysWith: +)
    }
}
