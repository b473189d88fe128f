/// The bucket columns a histogram row's statement names (``TimingTable``, ``MediaRollupWriter``): from the
/// block of four holding the first changed bucket to the block holding the last.
///
/// A commit usually changes a few neighbouring buckets of a row, and naming all of a table's 40 or 60 columns
/// makes every row cost as much as the widest. Exact runs would need up to 820 (1,830) statements, each
/// prepared once by the writer; blocks make them 55 (120) at the cost of adding a few zeros.
struct HistogramRun {
    static let block = 4

    let columns: ClosedRange<Int>
    /// One number per distinct run of a table.
    let id: Int

    /// The run of `counts`, or `nil` when every count is zero.
    init?(_ counts: [Int64]) {
        guard let first = counts.firstIndex(where: { $0 != 0 }), let last = counts.lastIndex(where: { $0 != 0 }) else {
            return nil
        }
        let lower = first / Self.block * Self.block
        let upper = min(counts.count - 1, (last / Self.block + 1) * Self.block - 1)
        columns = lower...upper
        id = lower * counts.count + upper
    }
}
