/// Registered pushes in push id order, with a cursor for reading rows that come in that order (each
/// engine's per-push tables are keyed by `push_id` first): the expected push is compared rather than its id
/// hashed. A miss only costs the dictionary lookup it replaces, so any row order gives the same figures.
struct PushOrder {
    /// Positions in the assembly's array, by push id.
    let positions: [Int]
    /// Each position's rank in ``positions`` (pushes appended after the order was made have none).
    private let ranks: [Int]
    /// The rank of the push the last row named.
    private var cursor = 0

    init(_ pushes: [PushFigures]) {
        self.init(count: pushes.count) { pushes[$0].pushID }
    }

    /// The order of `count` pushes whose ids `id(position)` gives (for assemblies that keep no figures).
    init(count: Int, id: (Int) -> String) {
        positions = (0..<count).sorted { id($0) < id($1) }
        var ranks = [Int](repeating: 0, count: count)
        for (rank, position) in positions.enumerated() { ranks[position] = rank }
        self.ranks = ranks
    }

    /// The position of `pushID` if it is the push the last row named or the one after it.
    mutating func expected(_ pushID: String, in pushes: [PushFigures]) -> Int? {
        expected(pushID) { pushes[$0].pushID }
    }

    /// ``expected(_:in:)`` with the ids given by position.
    mutating func expected(_ pushID: String, id: (Int) -> String) -> Int? {
        // Byte for byte, as storage compares push ids (``ExactText``).
        for rank in cursor..<min(cursor + 2, positions.count) where id(positions[rank]).utf8.elementsEqual(pushID.utf8) {
            cursor = rank
            return positions[rank]
        }
        return nil
    }

    /// Moves the cursor to a push found by its id.
    mutating func moved(to position: Int) {
        if position < ranks.count { cursor = ranks[position] }
    }

    /// Reorders `values` so that they are the ones at `selected` (distinct positions), in that order, by
    /// swapping them along the permutation's cycles: no value is copied.
    static func permute<Value>(_ values: inout [Value], into selected: [Int]) {
        var target = [Int](repeating: -1, count: values.count)
        for (rank, position) in selected.enumerated() { target[position] = rank }
        var next = selected.count
        for position in target.indices where target[position] < 0 {
            target[position] = next
            next += 1
        }
        values.withUnsafeMutableBufferPointer { buffer in
            for position in buffer.indices {
                while target[position] != position {
                    let destination = target[position]
                    buffer.swapAt(position, destination)
                    target.swapAt(position, destination)
                }
            }
        }
        values.removeLast(values.count - selected.count)
    }
}
