/// A rollup row's key, read by its table's key columns (``RollupTable/key``) by name: a writer that binds a
/// column at a time walks the declaration and asks the key type for the column it names, so the order it binds
/// in is the declaration's, the order a statement's text was rendered in.
package protocol RollupKeyCells {
    /// How to read the text key column `name`, or `nil` when this key has no such column.
    static func text(_ name: String) -> ((Self) -> String)?
    /// How to read the integer key column `name`, or `nil` when this key has no such column.
    static func integer(_ name: String) -> ((Self) -> Int64)?
}

/// A key that is a push id alone (``RollupTable/timing``, ``RollupTable/media``).
extension String: RollupKeyCells {
    package static func text(_ name: String) -> ((String) -> String)? {
        switch name {
        case "push_id": { $0 }
        default: nil
        }
    }

    package static func integer(_ name: String) -> ((String) -> Int64)? { nil }
}

extension RollupAccumulator.PushKey: RollupKeyCells {
    package static func text(_ name: String) -> ((Self) -> String)? {
        switch name {
        case "push_id": { $0.pushID }
        case "action": { $0.action }
        default: nil
        }
    }

    package static func integer(_ name: String) -> ((Self) -> Int64)? {
        switch name {
        case "kind": { Int64($0.kind.rawValue) }
        default: nil
        }
    }
}

extension RollupAccumulator.BucketKey: RollupKeyCells {
    package static func text(_ name: String) -> ((Self) -> String)? {
        RollupAccumulator.PushKey.text(name).map { read in { read($0.push) } }
    }

    package static func integer(_ name: String) -> ((Self) -> Int64)? {
        switch name {
        case "bucket": { $0.bucket }
        default: RollupAccumulator.PushKey.integer(name).map { read in { read($0.push) } }
        }
    }
}

extension RollupAccumulator.PlatformBucketKey: RollupKeyCells {
    package static func text(_ name: String) -> ((Self) -> String)? {
        switch name {
        case "platform": { $0.platform }
        default: RollupAccumulator.BucketKey.text(name).map { read in { read($0.bucket) } }
        }
    }

    package static func integer(_ name: String) -> ((Self) -> Int64)? {
        RollupAccumulator.BucketKey.integer(name).map { read in { read($0.bucket) } }
    }
}

extension RollupAccumulator.TimeKey: RollupKeyCells {
    package static func text(_ name: String) -> ((Self) -> String)? {
        switch name {
        case "action": { $0.action }
        default: nil
        }
    }

    package static func integer(_ name: String) -> ((Self) -> Int64)? {
        switch name {
        case "bucket": { $0.bucket }
        case "kind": { Int64($0.kind.rawValue) }
        default: nil
        }
    }
}

extension RollupAccumulator.VersionKey: RollupKeyCells {
    package static func text(_ name: String) -> ((Self) -> String)? {
        switch name {
        case "version": { $0.version }
        default: RollupAccumulator.PushKey.text(name).map { read in { read($0.push) } }
        }
    }

    package static func integer(_ name: String) -> ((Self) -> Int64)? {
        switch name {
        case "dimension": { Int64($0.dimension) }
        default: RollupAccumulator.PushKey.integer(name).map { read in { read($0.push) } }
        }
    }
}

extension RollupAccumulator.PendingKey: RollupKeyCells {
    package static func text(_ name: String) -> ((Self) -> String)? {
        switch name {
        case "push_id": { $0.pushID }
        default: nil
        }
    }

    package static func integer(_ name: String) -> ((Self) -> Int64)? {
        switch name {
        case "clock": { Int64($0.clock) }
        case "second": { $0.second }
        default: nil
        }
    }
}

extension RollupAccumulator.MediaBucketKey: RollupKeyCells {
    package static func text(_ name: String) -> ((Self) -> String)? {
        switch name {
        case "push_id": { $0.pushID }
        default: nil
        }
    }

    package static func integer(_ name: String) -> ((Self) -> Int64)? {
        switch name {
        case "bucket": { $0.bucket }
        default: nil
        }
    }
}

extension RollupAccumulator.MediaVersionKey: RollupKeyCells {
    package static func text(_ name: String) -> ((Self) -> String)? {
        switch name {
        case "push_id": { $0.pushID }
        case "version": { $0.version }
        default: nil
        }
    }

    package static func integer(_ name: String) -> ((Self) -> Int64)? {
        switch name {
        case "dimension": { Int64($0.dimension) }
        default: nil
        }
    }
}

extension RollupAccumulator.OutcomeKey: RollupKeyCells {
    package static func text(_ name: String) -> ((Self) -> String)? {
        switch name {
        case "push_id": { $0.pushID }
        case "currency": { $0.currency }
        default: nil
        }
    }

    package static func integer(_ name: String) -> ((Self) -> Int64)? {
        switch name {
        case "measure": { Int64($0.measure.rawValue) }
        default: nil
        }
    }
}

extension RollupAccumulator.OutcomeTimeKey: RollupKeyCells {
    package static func text(_ name: String) -> ((Self) -> String)? {
        switch name {
        case "currency": { $0.currency }
        default: nil
        }
    }

    package static func integer(_ name: String) -> ((Self) -> Int64)? {
        switch name {
        case "bucket": { $0.bucket }
        case "measure": { Int64($0.measure.rawValue) }
        default: nil
        }
    }
}
