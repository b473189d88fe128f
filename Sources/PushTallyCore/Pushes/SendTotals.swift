/// The bound on a push's send figures: every record's and every sum of a push's records. Reports add pushes
/// up in 64 bits; with each push bounded, a sum passes 64 bits only over thousands of pushes of 10^15 devices
/// (``TotalOutOfRange``), never within one push or at read time of one.
public enum SendTotals {
    /// 10^15: far more devices than a push can reach, and still exact in a JavaScript number.
    public static let maximum: Int64 = 1_000_000_000_000_000

    /// Checks that `counts`, beside the push's other records' sums (`others`, the record being replaced left
    /// out), keeps each of the push's figures within ``maximum``.
    /// - Throws: ``StoreError/sendTotalOutOfRange(pushID:field:)`` naming the first figure that would not.
    package static func check(_ counts: SendCounts, others: SendCounts, pushID: String) throws(StoreError) {
        let failed = counts.failed.values.reduce(into: Int64(0)) { $0 = min($0 + $1, maximum + 1) }
        let othersFailed = others.failed.values.reduce(into: Int64(0)) { $0 = min($0 + $1, maximum + 1) }
        for (field, mine, theirs) in [("targeted", counts.targeted, others.targeted), ("sent", counts.sent, others.sent), ("failed", failed, othersFailed)]
        where mine > maximum || theirs > maximum || mine + theirs > maximum {
            throw StoreError.sendTotalOutOfRange(pushID: pushID, field: field)
        }
    }
}
