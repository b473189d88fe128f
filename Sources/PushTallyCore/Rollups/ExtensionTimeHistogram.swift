/// Extension time (a receipt's `extension_ms`) as counts in fixed, roughly log-scale buckets, stored one
/// column per bucket (`e0`...`e59`) beside the media counts.
///
/// Fixed bounds make the histograms of pushes and versions add up exactly, so a campaign's percentiles come
/// from rollups. Each bucket is narrow enough (at most a fifth wider than its lower bound) that the value a
/// quantile reports is within 10 % of every time the bucket holds, so of the exact percentile.
public struct ExtensionTimeHistogram: Sendable, Hashable {
    /// Upper bounds (exclusive) of each bucket in milliseconds; the last bucket holds 60 s (the most a receipt
    /// may say). Fixed by migration: a change of bounds needs a new one.
    public static let upperBoundsMillis: [Int64] = [
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 17, 20, 24, 29, 35, 42, 50, 60, 72, 86, 100, 120, 140, 170, 200, 240,
        290, 350, 420, 500, 600, 720, 860, 1000, 1200, 1400, 1700, 2000, 2400, 2900, 3500, 4200, 5000, 6000, 7200,
        8600, 10000, 12000, 14000, 17000, 20000, 24000, 29000, 35000, 42000, 50000, 60000,
    ]

    /// Buckets, and so columns.
    package static let count = upperBoundsMillis.count + 1
    /// The stored columns, one per bucket.
    package static let columnNames = (0..<count).map { "e\($0)" }

    /// Counts per bucket.
    public private(set) var counts: [Int64]

    public init() {
        counts = Array(repeating: 0, count: Self.count)
    }

    /// A histogram from its counts per bucket (as many as there are buckets).
    package init<Counts: Collection<Int64>>(counts: Counts) {
        precondition(counts.count == Self.count, "one count per bucket")
        self.counts = Array(counts)
    }

    /// The bucket of a time; a negative one counts as zero.
    public static func bucket(ofMillis millis: Int64) -> Int {
        histogramBucket(of: millis, upperBounds: upperBoundsMillis)
    }

    /// The value a bucket reports: between its least and greatest time, where the relative error to both is
    /// equal (their harmonic mean), so no time in it is more than 10 % away.
    public static func representative(ofBucket bucket: Int) -> Int64 {
        let low = bucket == 0 ? 0 : upperBoundsMillis[bucket - 1]
        guard bucket < upperBoundsMillis.count, low > 0 else { return low }
        let high = upperBoundsMillis[bucket] - 1
        return (2 * low * high + (low + high) / 2) / (low + high)
    }

    public mutating func add(millis: Int64) {
        counts[Self.bucket(ofMillis: millis)] += 1
    }

    public mutating func add(_ other: ExtensionTimeHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
    }

    /// This histogram less `other` (the part of a total that no named version holds).
    package func subtracting(_ other: ExtensionTimeHistogram) -> ExtensionTimeHistogram {
        var result = self
        for index in counts.indices { result.counts[index] -= other.counts[index] }
        return result
    }

    public var total: Int64 { counts.reduce(0, +) }

    /// The `q` quantile (0...1) in milliseconds by nearest rank, as its bucket's ``representative(ofBucket:)``;
    /// `nil` with no data.
    public func quantileMillis(_ q: Double) -> Int64? {
        let total = self.total
        guard total > 0 else { return nil }
        let rank = max(Int64((q * Double(total)).rounded(.up)), 1)
        var seen: Int64 = 0
        for (index, count) in counts.enumerated() {
            seen += count
            if seen >= rank { return Self.representative(ofBucket: index) }
        }
        return Self.representative(ofBucket: counts.count - 1)
    }
}
