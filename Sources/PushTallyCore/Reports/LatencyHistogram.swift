/// Time to display (display time - `sent_at`) as counts in fixed, roughly log-scale buckets.
///
/// Fixed bounds make histograms of different pushes add up exactly, so a campaign's percentiles come from
/// rollups, not raw rows. The bounds include 1 h, 24 h and 7 d exactly, so maturity rates are exact too.
public struct LatencyHistogram: Sendable, Hashable {
    /// Upper bounds (exclusive) of each bucket, in seconds; the last bucket is everything from 7 days on.
    public static let upperBoundsSeconds: [Int64] = [
        1, 2, 3, 5, 7, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 420, 600, 900, 1200, 1800, 2700, 3600,
        5400, 7200, 10800, 14400, 21600, 28800, 43200, 64800, 86400, 129600, 172800, 259200, 345600, 432000,
        518400, 604800,
    ]

    /// Counts per bucket; index `upperBoundsSeconds.count` holds 7 days and more.
    public private(set) var counts: [Int64]

    public init() {
        counts = Array(repeating: 0, count: Self.upperBoundsSeconds.count + 1)
    }

    /// A histogram from its counts per bucket (as many as there are buckets).
    package init(counts: [Int64]) {
        precondition(counts.count == Self.upperBoundsSeconds.count + 1, "one count per bucket")
        self.counts = counts
    }

    /// The bucket of a latency; negative latencies (a display before `sent_at`) count as zero.
    public static func bucket(ofMillis latency: Int64) -> Int {
        histogramBucket(of: max(latency, 0) / 1000, upperBounds: upperBoundsSeconds)
    }

    public mutating func add(bucket: Int, count: Int64) {
        guard counts.indices.contains(bucket) else { return }
        counts[bucket] += count
    }

    public mutating func add(_ other: LatencyHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
    }

    /// Adds a histogram given count by count (`count(bucket)` for every bucket).
    package mutating func add(count: (_ bucket: Int) -> Int64) {
        for index in counts.indices { counts[index] += count(index) }
    }

    public var total: Int64 { counts.reduce(0, +) }

    /// Non-empty buckets keyed by their upper bound in seconds; the open last bucket is `"604800+"`.
    public var countsByUpperBound: [String: Int64] {
        // Sized once: growing it bucket by bucket rehashed every key again (a report builds one per row).
        var result = [String: Int64](minimumCapacity: counts.reduce(0) { $1 > 0 ? $0 + 1 : $0 })
        for (index, count) in counts.enumerated() where count > 0 {
            result[Self.upperBoundKeys[index]] = count
        }
        return result
    }

    /// Each bucket's key in ``countsByUpperBound``, made once rather than formatted per report row.
    private static let upperBoundKeys = upperBoundsSeconds.map { String($0) } + ["\(upperBoundsSeconds.last!)+"]

    /// Displays with a latency below `seconds`, which must be one of the bounds (1 h, 24 h, 7 d are).
    public func count(below seconds: Int64) -> Int64 {
        guard let end = Self.upperBoundsSeconds.firstIndex(of: seconds) else { return 0 }
        return counts[...end].reduce(0, +)
    }

    /// The `q` quantile (0...1) in seconds, as the upper bound of the bucket that holds it (so it is exact to
    /// within one bucket); `nil` with no data, and the 7-day bound for the open last bucket.
    public func quantileSeconds(_ q: Double) -> Int64? {
        let total = self.total
        guard total > 0 else { return nil }
        let rank = Int64((q * Double(total)).rounded(.up))
        var seen: Int64 = 0
        for (index, count) in counts.enumerated() {
            seen += count
            if seen >= max(rank, 1) {
                return index < Self.upperBoundsSeconds.count ? Self.upperBoundsSeconds[index] : Self.upperBoundsSeconds.last!
            }
        }
        return Self.upperBoundsSeconds.last
    }
}
