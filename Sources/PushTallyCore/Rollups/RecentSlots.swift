/// Where a dictionary's two most recent keys are stored, so a key that repeats one of them is found by comparing
/// it instead of hashing it again.
///
/// A commit's events mostly repeat their neighbours' keys (a push's receipts arrive together, in the same hour
/// and second), and hashing a key with a push id in it costs several times comparing it. Only valid for the
/// dictionary it was filled from, and only while keys are added to it through `update(_:default:recent:_:)` alone: an
/// insertion may move every stored value, so it forgets the other slot. Nothing here ever removes a key.
struct RecentSlots<Key: Hashable, Value> {
    private var first: (key: Key, index: Dictionary<Key, Value>.Index)?
    private var second: (key: Key, index: Dictionary<Key, Value>.Index)?

    init() {}

    @inline(__always)
    func index(of key: Key) -> Dictionary<Key, Value>.Index? {
        if let first, first.key == key { return first.index }
        if let second, second.key == key { return second.index }
        return nil
    }

    /// `key` is at `index`; `moved` when the dictionary grew, which may have moved the other slot's value.
    @inline(__always)
    mutating func remember(_ key: Key, at index: Dictionary<Key, Value>.Index, moved: Bool) {
        second = moved ? nil : first
        first = (key, index)
    }

    /// Forgets both slots, for a dictionary changed some other way (its capacity reserved).
    mutating func forget() {
        first = nil
        second = nil
    }
}

extension Dictionary {
    /// Changes the value for `key` (`value` first when it has none), found through `recent` when it is one of
    /// the two keys last changed.
    @inline(__always)
    mutating func update(
        _ key: Key, default value: @autoclosure () -> Value, recent: inout RecentSlots<Key, Value>,
        _ change: (inout Value) -> Void
    ) {
        if let index = recent.index(of: key) {
            change(&values[index])
            return
        }
        let index: Index
        let inserted: Bool
        if let found = self.index(forKey: key) {
            (index, inserted) = (found, false)
        } else {
            self[key] = value()
            (index, inserted) = (self.index(forKey: key)!, true)
        }
        change(&values[index])
        recent.remember(key, at: index, moved: inserted)
    }
}
