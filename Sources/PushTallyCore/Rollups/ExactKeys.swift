/// Values by push id, the id compared byte for byte; read as `(key, value)` pairs or by id.
package struct ByPush<Value>: Sequence {
    let values: [ExactText: Value]

    package subscript(pushID: String) -> Value? { values[ExactText(pushID)] }

    package func makeIterator() -> Iterator { Iterator(base: values.makeIterator()) }

    package struct Iterator: IteratorProtocol {
        var base: [ExactText: Value].Iterator

        // Specialized here for the accumulator's two maps: the writers iterate them from other modules, where a
        // generic call runs unspecialized and looks up the pair's tuple metadata for every element.
        @_specialize(exported: true, where Value == LatencyHistogram)
        @_specialize(exported: true, where Value == MediaOutcomes)
        package mutating func next() -> (key: String, value: Value)? {
            guard let (key, value) = base.next() else { return nil }
            return (key.text, value)
        }
    }
}

/// A rollup key whose names (at most two; `""` for none) compare byte for byte (see ``RollupAccumulator``).
package protocol ExactKey: Hashable {
    associatedtype Rest: Hashable
    var names: (String, String) { get }
    /// The parts of the key that are not names.
    var rest: Rest { get }
}

extension ExactKey {
    package static func == (a: Self, b: Self) -> Bool {
        a.rest == b.rest && a.names.0.isExactly(b.names.0) && a.names.1.isExactly(b.names.1)
    }

    package func hash(into hasher: inout Hasher) {
        let (first, second) = names
        hasher.combine(exactly: first)
        // Most keys have one name; each fed name carries its length, so skipping an empty one confuses none.
        if !second.isEmpty { hasher.combine(exactly: second) }
        hasher.combine(rest)
    }
}

/// Two parts of a key's rest.
package struct KeyPair<A: Hashable, B: Hashable>: Hashable {
    var a: A
    var b: B
}

extension RollupAccumulator.PushKey: ExactKey {
    package var names: (String, String) { (pushID, action) }
    package var rest: EventKind { kind }
}

extension RollupAccumulator.TimeKey: ExactKey {
    package var names: (String, String) { (action, "") }
    package var rest: KeyPair<Int64, EventKind> { KeyPair(a: bucket, b: kind) }
}

extension RollupAccumulator.PendingKey: ExactKey {
    package var names: (String, String) { (pushID, "") }
    package var rest: KeyPair<Int, Int64> { KeyPair(a: clock, b: second) }
}

extension RollupAccumulator.VersionKey: ExactKey {
    package var names: (String, String) { (version, "") }
    package var rest: KeyPair<RollupAccumulator.PushKey, Int> { KeyPair(a: push, b: dimension) }
}

extension RollupAccumulator.OutcomeKey: ExactKey {
    package var names: (String, String) { (pushID, currency) }
    package var rest: OutcomeMeasure { measure }
}

extension RollupAccumulator.OutcomeTimeKey: ExactKey {
    package var names: (String, String) { (currency, "") }
    package var rest: KeyPair<Int64, OutcomeMeasure> { KeyPair(a: bucket, b: measure) }
}

extension RollupAccumulator.MediaVersionKey: ExactKey {
    package var names: (String, String) { (pushID, version) }
    package var rest: Int { dimension }
}

extension RollupAccumulator.PlatformBucketKey: ExactKey {
    package var names: (String, String) { (platform, "") }
    package var rest: RollupAccumulator.BucketKey { bucket }
}

extension RollupAccumulator.MediaBucketKey: ExactKey {
    package var names: (String, String) { (pushID, "") }
    package var rest: Int64 { bucket }
}
