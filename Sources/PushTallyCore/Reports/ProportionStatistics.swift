import Foundation

/// The statistics of the variants report: Wilson score intervals and the pooled two-proportion z-test, computed
/// as statsmodels computes them (`proportion_confint(method="wilson")`, `proportions_ztest`), so an analyst can
/// reproduce every figure. Where statsmodels answers NaN these answer `nil`, which reports write as `null`.
public enum ProportionStatistics {
    /// The standard normal quantile of 0.975 (`scipy.stats.norm.isf(0.025)`): 95 % two-sided.
    public static let z95 = 1.959963984540054

    /// A confidence interval of a proportion.
    public struct Interval: Sendable, Hashable {
        public var low: Double
        public var high: Double

        public init(low: Double, high: Double) {
            self.low = low
            self.high = high
        }
    }

    /// Whether `successes` of `trials` is a proportion at all: a display count above the sends (keyless retries,
    /// under-reported sends) is not a sample of them, and no interval or test of it would mean anything.
    public static func isProportion(_ successes: Int64, of trials: Int64) -> Bool {
        trials > 0 && successes >= 0 && successes <= trials
    }

    /// The Wilson score interval of `successes / trials`; `nil` when that is no proportion (nothing tried, or
    /// more successes than trials).
    public static func wilson(_ successes: Int64, of trials: Int64, z: Double = z95) -> Interval? {
        guard isProportion(successes, of: trials) else { return nil }
        let n = Double(trials)
        let q = Double(successes) / n
        let z2 = z * z
        let denominator = 1 + z2 / n
        let center = (q + z2 / (2 * n)) / denominator
        let distance = z * (q * (1 - q) / n + z2 / (4 * n * n)).squareRoot() / denominator
        return Interval(low: center - distance, high: center + distance)
    }

    /// The two-sided p-value of the pooled two-proportion z-test of `x1 / n1` against `x2 / n2`.
    ///
    /// `nil` where statsmodels gives NaN: a side with no trials, or a pooled proportion of 0 or 1 (both sides
    /// all failures or all successes: no variance, so no test). Also `nil` when a side is no proportion
    /// (``isProportion(_:of:)``), where statsmodels would test a rate above 1 as if it were one.
    public static func pooledZTestPValue(_ x1: Int64, of n1: Int64, against x2: Int64, of n2: Int64) -> Double? {
        guard isProportion(x1, of: n1), isProportion(x2, of: n2) else { return nil }
        let pooled = Double(x1 + x2) / Double(n1 + n2)
        let variance = pooled * (1 - pooled) * (1 / Double(n1) + 1 / Double(n2))
        guard variance > 0 else { return nil }
        let z = (Double(x1) / Double(n1) - Double(x2) / Double(n2)) / variance.squareRoot()
        // 2 · (1 − Φ(|z|)) = erfc(|z| / √2), without the cancellation of 1 − Φ for large |z|.
        return erfc(abs(z) / 2.0.squareRoot())
    }

    /// `(rate − control) / control`; `nil` when either rate is unknown or the control's is 0.
    public static func lift(_ rate: Double?, over control: Double?) -> Double? {
        guard let rate, let control, control != 0 else { return nil }
        return (rate - control) / control
    }
}
