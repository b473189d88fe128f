import Testing

@testable import PushTallyCore

/// Money totals as units and millionths: exact past 64 bits of millionths, refused past 64 bits of units.
@Suite struct MoneyTotalTests {
    @Test(arguments: [
        (Int64(9_990_000), "9.99"), (5_000_000, "5"), (1, "0.000001"), (-500_000, "-0.5"), (-1_000_000, "-1"),
        (-1_500_001, "-1.500001"), (0, "0"), (.max, "9223372036854.775807"), (.min, "-9223372036854.775808"),
    ])
    func textIsTheExactDecimalAndReadsBack(micros: Int64, text: String) {
        let total = MoneyTotal(micros: micros)
        #expect(total.text == text)
        #expect(MoneyTotal(text: text) == total)
        #expect((0..<1_000_000).contains(total.micros))
    }

    @Test func sumsPastSixtyFourBitsOfMillionthsStayExact() {
        var total = MoneyTotal.zero
        // 9,300 conversions of a billion units: 9.3 × 10^18 millionths, past Int64.max.
        var added = (0..<9_300).allSatisfy { _ in total.add(MoneyTotal(micros: 1_000_000_000 * 1_000_000)) }
        #expect(added && total.text == "9300000000000")
        added = total.add(MoneyTotal(micros: 999_999)) && total.add(MoneyTotal(micros: 2))
        #expect(added && total.text == "9300000000001.000001")
        // A credit taken back brings it down exactly.
        added = total.add(MoneyTotal(micros: -2))
        #expect(added && total.text == "9300000000000.999999")
    }

    @Test func storedPartsOfAnyRangeReadBackAndUnitsPastSixtyFourBitsAreRefused() {
        // Sums of many rows' parts: millionths past a unit, negative ones from credits moved away.
        #expect(MoneyTotal(units: 5, micros: 3_000_001)?.text == "8.000001")
        #expect(MoneyTotal(units: 5, micros: -3_000_001)?.text == "1.999999")
        #expect(MoneyTotal(units: .max, micros: 1_000_000) == nil)
        var most = MoneyTotal(units: .max, micros: 999_999)!
        let added = most.add(MoneyTotal(micros: 1))
        #expect(!added)
        #expect(most.text == "9223372036854775807.999999")
        // The least total there is reads back from its text, and a carry that brings units back is no overflow.
        let least = MoneyTotal(units: .min, micros: 0)!
        #expect(least.text == "-9223372036854775808" && MoneyTotal(text: least.text) == least)
        var low = MoneyTotal(units: .min, micros: 500_000)!
        let carried = low.add(MoneyTotal(units: -1, micros: 600_000)!)
        #expect(carried && low.text == "-9223372036854775807.9")
        var lower = least
        let passed = lower.add(MoneyTotal(micros: -1))
        #expect(!passed && lower == least)
    }

    @Test(arguments: ["", "-", "1.", ".5", "1.0000001", "1e3", " 1", "1,5", "99999999999999999999"])
    func textThatIsNoAmountIsNotRead(_ text: String) {
        #expect(MoneyTotal(text: text) == nil)
    }

    @Test func aFunnelSumPastSixtyFourBitsMarksItsFieldAndItsReportThrows() throws {
        var push = Funnel()
        push.addSends(targeted: 0, sent: SendTotals.maximum, timed: true)
        push.addFailures(reason: "Unregistered", count: SendTotals.maximum)
        var campaign = Funnel()
        for _ in 0..<9_223 { campaign.add(push) }
        try campaign.checkRange()
        campaign.add(push)
        #expect(campaign.outOfRange == "sent")
        #expect(throws: TotalOutOfRange(field: "sent")) { try campaign.checkRange() }
        // The figure is left as it was, never wrapped.
        #expect(campaign.sent == 9_223 * SendTotals.maximum)
    }

    @Test func outcomesMarkAValueThatNoLongerFits() throws {
        var outcomes = Outcomes()
        outcomes.add(measure: .directConversion, currency: "VND", count: 1, value: MoneyTotal(units: .max, micros: 0)!)
        var funnel = Funnel()
        funnel.outcomes = outcomes
        try funnel.checkRange()
        funnel.outcomes.add(measure: .influencedConversion, currency: "VND", count: 1, value: MoneyTotal(micros: 1_000_000))
        #expect(throws: TotalOutOfRange(field: "conversion_value")) { try funnel.checkRange() }
        #expect(funnel.outcomes.valueInfluenced == ["VND": 1_000_000])
    }

    @Test func aPushsSendRecordsAddUpToAtMostTheBound() throws {
        let most = SendCounts(targeted: SendTotals.maximum, sent: 1, failed: ["A": SendTotals.maximum / 2, "B": SendTotals.maximum / 2])
        try SendTotals.check(most, others: SendCounts(), pushID: "p")
        #expect(throws: StoreError.sendTotalOutOfRange(pushID: "p", field: "sent")) {
            try SendTotals.check(SendCounts(sent: 600), others: SendCounts(sent: SendTotals.maximum - 599), pushID: "p")
        }
        let reasons = Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("R\($0)", SendTotals.maximum) })
        #expect(throws: StoreError.sendTotalOutOfRange(pushID: "p", field: "failed")) {
            try SendTotals.check(SendCounts(failed: reasons), others: SendCounts(), pushID: "p")
        }
    }
}
