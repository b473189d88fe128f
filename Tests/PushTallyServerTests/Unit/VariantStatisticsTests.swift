import PushTallyCore
import PushTallyTestSupport
import Testing

/// The variants report's statistics against an independent implementation: statsmodels' `proportions_ztest`
/// (pooled, two-sided) and `proportion_confint(method="wilson")`, to 1e-9; null exactly where statsmodels
/// answers NaN.
@Suite struct VariantStatisticsTests {
    typealias Case = StatsmodelsReference.Case

    static let cases: [Case] = [
        // Ordinary rates.
        Case(30, of: 100, against: 45, of: 120), Case(5, of: 83, against: 12, of: 99), Case(412, of: 1000, against: 388, of: 1000),
        // Rates of 0 and 1, on one side and on both (a pooled 0 or 1 has no variance: NaN, so null).
        Case(0, of: 50, against: 10, of: 50), Case(50, of: 50, against: 40, of: 50), Case(0, of: 10, against: 0, of: 20),
        Case(10, of: 10, against: 20, of: 20), Case(0, of: 1, against: 1, of: 1),
        // Equal rates: p = 1.
        Case(5, of: 10, against: 5, of: 10), Case(20, of: 100, against: 40, of: 200),
        // A control with no sends, a variant with none, both.
        Case(3, of: 10, against: 0, of: 0), Case(0, of: 0, against: 3, of: 10), Case(0, of: 0, against: 0, of: 0),
        // One send a side (one-push, one-device variants).
        Case(1, of: 1, against: 0, of: 1), Case(1, of: 1, against: 1, of: 2),
        // Large counts, a p-value far in the tail, and a difference too small to see.
        Case(1_234_567, of: 10_000_000, against: 1_240_000, of: 10_000_000), Case(5000, of: 10000, against: 4000, of: 10000),
        Case(2_000_000_001, of: 4_000_000_000, against: 1_999_950_000, of: 4_000_000_000),
    ]

    @Test func pValuesAndIntervalsMatchStatsmodels() async throws {
        let answers = try await StatsmodelsReference.answers(Self.cases)
        for (c, answer) in zip(Self.cases, answers) {
            let p = ProportionStatistics.pooledZTestPValue(c.x1, of: c.n1, against: c.x2, of: c.n2)
            Self.expectClose(p, answer.pValue, "p-value of \(c)")
            // The test is symmetric: the control's side does not change the p-value.
            Self.expectClose(ProportionStatistics.pooledZTestPValue(c.x2, of: c.n2, against: c.x1, of: c.n1), answer.pValue, "\(c) reversed")
            for (side, (x, n)) in [(c.x1, c.n1), (c.x2, c.n2)].enumerated() {
                let interval = ProportionStatistics.wilson(x, of: n)
                Self.expectClose(interval?.low, answer.intervals[side]?[0], "interval low of \(x)/\(n)")
                Self.expectClose(interval?.high, answer.intervals[side]?[1], "interval high of \(x)/\(n)")
            }
        }
        // The cases reach every rule: both nulls and p = 1 among them.
        #expect(answers.contains { $0.pValue == nil } && answers.contains { $0.pValue == 1 })
        #expect(answers.contains { ($0.pValue ?? 1) < 1e-20 })
    }

    static func expectClose(_ value: Double?, _ reference: Double?, _ what: String) {
        switch (value, reference) {
        case (nil, nil): break
        case (let value?, let reference?):
            #expect(abs(value - reference) <= 1e-9, "\(what): \(value) vs statsmodels' \(reference)")
            #expect(value.isFinite, "\(what)")
        default: Issue.record("\(what): \(String(describing: value)) vs statsmodels' \(String(describing: reference))")
        }
    }
}
