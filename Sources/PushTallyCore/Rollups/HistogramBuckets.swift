/// The bucket of a fixed-bound histogram that holds `value`: the index of the first of the ascending,
/// exclusive upper `bounds` above it, or `bounds.count` (the open last bucket) when none is.
package func histogramBucket(of value: Int64, upperBounds bounds: [Int64]) -> Int {
    var low = 0
    var high = bounds.count
    while low < high {
        let mid = (low + high) / 2
        if value < bounds[mid] { high = mid } else { low = mid + 1 }
    }
    return low
}
