import Testing

@testable import PushTallyCore

/// A per-push count is one ``PushCount`` case: its `rollup_push` column, its cell in every row of receipt counts
/// and its sum in a funnel follow from it.
@Suite struct PushCountsTests {
    @Test func aRowHoldsACellPerCount() {
        #expect(PushCounts.cells == PushCount.allCases.count, "PushCounts' cells must match PushCount's cases")
        var counts = PushCounts()
        for count in PushCount.allCases { counts[count] = Int64(count.rawValue + 5) }
        for count in PushCount.allCases { #expect(counts[count] == Int64(count.rawValue + 5)) }
        var doubled = counts
        doubled.add(counts)
        for count in PushCount.allCases { #expect(doubled[count] == 2 * counts[count]) }
        #expect(doubled != counts && PushCounts() == PushCounts())
        #expect(Set([counts, counts, PushCounts()]).count == 2)
    }

    @Test func eachCountIsAnAdditiveColumnOfThePushRollup() {
        for count in PushCount.allCases {
            let column = RollupTable.push.values.first { $0.name == count.column }
            #expect(column?.value == .delta(.count(count)), "\(count.column)")
            #expect(column?.merge == .add && column?.defaultsToZero == true, "\(count.column)")
            #expect(!RollupTable.bucket.values.contains { $0.name == count.column }, "only rollup_push holds \(count.column)")
        }
    }

    @Test func aFunnelSumsEveryCountOfItsRows() {
        var row = RollupAccumulator.Delta()
        for count in PushCount.allCases { row[.count(count)] = Int64(count.rawValue + 2) }
        var funnel = Funnel()
        funnel.addRollup(row, kind: .display, action: "")
        var campaign = Funnel()
        campaign.add(funnel)
        campaign.add(funnel)
        for count in PushCount.allCases { #expect(campaign.counts[count] == 2 * Int64(count.rawValue + 2)) }
    }
}
