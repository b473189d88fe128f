/// Time-to-display histograms are stored as one row per push, one column per ``LatencyHistogram`` bucket
/// (`b0`...`b39`), on both engines.
///
/// One row per push rather than one per bucket: a campaign report reads every push's histogram, and a row per
/// bucket was most of its time. Updates stay additive upserts (`b5 = b5 + excluded.b5`).
package enum TimingColumns {
    /// Buckets, and so columns; fixed by migration (a change of bounds needs a new migration).
    package static let count = 40
    package static let names = (0..<count).map { "b\($0)" }
}
