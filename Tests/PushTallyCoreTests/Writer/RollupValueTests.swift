import Testing

@testable import PushTallyCore

/// The writers of both engines bind a rollup row's values by walking its table's declared value columns, so
/// each column must say which delta field it holds, and the walk must give the fields in declared order.
@Suite struct RollupValueTests {
    @Test func everyCountAndOutcomeColumnSaysWhichDeltaFieldItHolds() {
        for table in [RollupTable.push, .bucket, .time, .version, .platformBucket] {
            let unread = table.values.filter { if case .delta = $0.value { false } else { true } }.map(\.name)
            #expect(unread.isEmpty, "\(table): \(unread)")
        }
        for table in [RollupTable.outcome, .outcomeTime] {
            let unread = table.values.filter { if case .outcome = $0.value { false } else { true } }.map(\.name)
            #expect(unread.isEmpty, "\(table): \(unread)")
        }
    }

    @Test func aPushRowBindsEachDeclaredColumnFromItsField() {
        var delta = RollupAccumulator.Delta()
        (delta.total, delta.duplicates, delta.firstTime, delta.lastTime, delta.counts[.late]) = (7, 2, 1_000, 9_000, 3)
        let bound = Dictionary(uniqueKeysWithValues: zip(RollupTable.push.values.map(\.name), RollupTable.push.deltaFields.map { delta[$0] }))
        let expected: [String: Int64] = ["total": 7, "duplicates": 2, "first_time": 1_000, "last_time": 9_000, "late": 3]
        #expect(bound.filter { expected.keys.contains($0.key) } == expected)
        #expect(RollupTable.bucket.deltaFields.map { delta[$0] } == [7, 2])
    }

    @Test func anOutcomeRowBindsItsValueAsItsTwoParts() throws {
        var delta = RollupAccumulator.OutcomeDelta()
        delta.count = 4
        delta.value = try #require(MoneyTotal(units: 12, micros: 345_678))
        let bound = Dictionary(uniqueKeysWithValues: zip(RollupTable.outcome.values.map(\.name), RollupTable.outcome.outcomeFields.map { delta[$0] }))
        #expect(bound == ["count": 4, "value_micros": delta.value.micros, "value_units": delta.value.units])
        #expect(delta.value.units * 1_000_000 + delta.value.micros == 12_345_678)
    }
}
