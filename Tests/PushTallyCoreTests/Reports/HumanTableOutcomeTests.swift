import Testing

@testable import PushTallyCore

/// What pushes caused, in the terminal table: shown where there is room, never at the cost of a name.
@Suite struct HumanTableOutcomeTests {
    static func campaignTable(name: String) -> ReportTable {
        var outcomes = Outcomes()
        outcomes.influencedOpens = 12
        outcomes.add(measure: .directConversion, currency: "USD", count: 2, value: 9_990_000)
        outcomes.add(measure: .directConversion, currency: "EUR", count: 1, value: 5_000_000)
        var funnel = Funnel()
        funnel.outcomes = outcomes
        let row = CampaignRow(campaign: name, funnel: funnel, pushIDs: ["p1"])
        return CampaignsReport.table([row], maturity: Maturity(nowMillis: 0))
    }

    @Test func theCampaignTableShowsOutcomesWhereItHasRoom() throws {
        let roomy = HumanTableRenderer.render(Self.campaignTable(name: "spring"), style: HumanTableStyle(width: 200))
        let lines = roomy.split(separator: "\n").map(String.init)
        #expect(lines[0].hasSuffix("p50 to display  rich rate  influenced opens  conversions            value"), "\(roomy)")
        // No display asked for media: no rich rate.
        #expect(lines[1].hasSuffix("–          –                12            3  EUR 5, USD 9.99"), "\(roomy)")
        // Direct opens are taps, already under `opened`: the campaign table does not show them apart.
        #expect(!roomy.contains("direct"))
    }

    /// At 80 columns the outcome columns give way before a campaign's name is cut.
    @Test func outcomeColumnsGiveWayBeforeTheName() {
        let name = "Winter sale"
        let narrow = HumanTableRenderer.render(Self.campaignTable(name: name), style: HumanTableStyle(width: 80))
        #expect(narrow.contains(name), "\(narrow)")
        #expect(!narrow.contains("influenced") && !narrow.contains("USD"), "\(narrow)")
        #expect(narrow.split(separator: "\n").allSatisfy { HumanTableRenderer.displayWidth(String($0)) <= 80 })
        #expect(narrow.split(separator: "\n")[0].hasSuffix("p50 to display"))
    }

    @Test func theAttributionTotalsReadInOneLine() {
        var outcomes = Outcomes()
        outcomes.directOpens = 1
        outcomes.influencedOpens = 2
        outcomes.unattributedSessions = 1_500
        outcomes.add(measure: .influencedConversion, currency: "USD", count: 1, value: 9_990_000)
        outcomes.add(measure: .unattributedConversion, currency: "JPY", count: 4, value: 10_000_000)
        let drawn = HumanTableRenderer.render(AttributionReport.table(outcomes), style: HumanTableStyle(width: 120))
        #expect(drawn == """
            sessions  direct opens  influenced opens  no-push sessions  conversions  no-push conversions     value  no-push value
               1,503             1                 2             1,500            1                    4  USD 9.99         JPY 10

            """)
        // `--wide`: CSV names, a column per currency.
        let wide = HumanTableRenderer.render(AttributionReport.table(outcomes), style: HumanTableStyle(width: 120, wide: true))
        let header = wide.split(separator: "\n")[0]
        #expect(header.contains("conversions_direct") && header.contains("conversion_value:USD"))
        #expect(header.contains("unattributed_conversion_value:JPY"), "\(wide)")
    }
}
