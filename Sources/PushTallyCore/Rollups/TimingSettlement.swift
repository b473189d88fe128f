/// Settling a push's pending timing once its `sent_at` becomes known.
///
/// Receipts that arrive before the push is registered cannot be timed, so each is kept as a pending count by
/// whole second of event time (clock 0) and of receive time (clock 1). Registration turns them into the
/// push's latency histogram and its count of late receipts, by the same arithmetic as a receipt timed at once.
package enum TimingSettlement {
    /// One pending row: `count` receipts at `second` on `clock` (0: event time, 1: receive time).
    package struct Pending: Sendable, Hashable {
        package var clock: Int
        package var second: Int64
        package var count: Int64

        package init(clock: Int, second: Int64, count: Int64) {
            self.clock = clock
            self.second = second
            self.count = count
        }
    }

    /// What a push's pending rows add up to: histogram counts, and receipts received after the maturity window.
    package static func settle(
        _ pending: [Pending], sentAt: Int64, maturityWindow: Int64
    ) -> (histogram: LatencyHistogram, late: Int64) {
        var histogram = LatencyHistogram()
        var late: Int64 = 0
        for row in pending {
            if row.clock == 0 {
                histogram.add(bucket: LatencyHistogram.bucket(ofMillis: row.second * 1000 - sentAt), count: row.count)
            } else if row.second * 1000 > sentAt + maturityWindow {
                late += row.count
            }
        }
        return (histogram, late)
    }

    /// Settlement applies to the live rollups and to the ledger alike: pruned receipts may be waiting too.
    package static let targets: [RollupTarget] = [.rollups, .ledger]
}
