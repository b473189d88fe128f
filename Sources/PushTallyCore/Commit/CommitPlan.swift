/// One group commit decided once for both engines, from what only the database can tell (which dedupe keys
/// were new, each push's `sent_at`): which events are retries, the raw rows, the rollup deltas, the devices
/// whose attribution may change and the events the webhook outbox takes. An engine inserts the keys, asks
/// for the plan, and executes it in its own statements; it decides nothing of its own.
package struct CommitPlan: Sendable {
    /// The commit's events in commit order (ingested ones built by ``StoredEvent/init(_:receivedAt:)``, which
    /// clamps their time).
    package let events: [StoredEvent]
    /// Per event, whether it is a recognised retry.
    package let duplicates: [Bool]
    /// The devices whose sessions and conversions may need attributing, and from when.
    package let touches: AttributionTouches

    /// Plans `events`; `newKeys` says, for each of their dedupe keys (each event's ``StoredEvent/dedupeKeys``
    /// in order, events in commit order), whether storing it was new. An event is a retry when any of its keys
    /// was stored before it, by an earlier commit or an earlier event of this one; an imported event keeps the
    /// flag it was exported with.
    package init(_ events: [StoredEvent], newKeys: [Bool]) {
        var duplicates: [Bool] = []
        duplicates.reserveCapacity(events.count)
        var touches = AttributionTouches()
        var key = 0
        // By index, so no event is copied out of the array (a commit's events are wide values).
        for index in events.indices {
            let count = DedupeKeys.count(kind: events[index].kind, deviceID: events[index].deviceID, receiptID: events[index].receiptID)
            let retry = events[index].duplicate ?? newKeys[key..<key + count].contains(false)
            key += count
            duplicates.append(retry)
            touches.add(events[index], duplicate: retry)
        }
        self.events = events
        self.duplicates = duplicates
        self.touches = touches
    }

    /// The raw rows: each event with whether it is a retry.
    package var rows: [(StoredEvent, Bool)] { Array(zip(events, duplicates)) }

    /// The pushes whose `sent_at` the rollups ask for (``RollupCounter/timedPushIDs(_:)``): an engine that
    /// reads them in one query reads these.
    package var timedPushIDs: Set<String> { RollupCounter.timedPushIDs(zip(events, duplicates)) }

    /// The rollup deltas of the rows; attribution's changes are added by the engine once it has read the
    /// touched devices' events.
    package func rollups(
        maturityWindow: Int64, names: NameFold, sentAt: (String) throws -> Int64?
    ) rethrows -> RollupCounter {
        var counter = RollupCounter(maturityWindow: maturityWindow, names: names)
        counter.reserveCapacity(events: events.count)
        for index in events.indices {
            try counter.add(events[index], duplicate: duplicates[index], sentAt: sentAt)
        }
        return counter
    }

    /// What the outbox takes: new displays and taps (a retry carries nothing new), in commit order.
    package var outboxEvents: [StoredEvent] {
        zip(events, duplicates).compactMap { event, duplicate in !duplicate && event.kind.namesPush ? event : nil }
    }

    /// The devices a writer locks before it knows which events are retries: every device named by an event
    /// that takes part in attribution, retries included.
    package static func devicesToLock(_ events: [StoredEvent]) -> Set<String> {
        Set(events.lazy.filter { AttributionTouches.takesPart(kind: $0.kind, action: $0.action) }.compactMap(\.deviceID))
    }

    /// ``init(_:newKeys:)``'s `newKeys` for an engine that learns the set of keys its insert stored: the
    /// first occurrence of each such key is new, any later one (a retry within the commit) is not.
    package static func newKeys(_ keys: [[DedupeKey]], inserted: consuming Set<DedupeKey>) -> [Bool] {
        var unclaimed = inserted
        var flags: [Bool] = []
        flags.reserveCapacity(keys.reduce(0) { $0 + $1.count })
        for eventKeys in keys {
            for key in eventKeys { flags.append(unclaimed.remove(key) != nil) }
        }
        return flags
    }

    /// ``init(_:newKeys:)``'s `newKeys` when every key is predicted new (none stored by an earlier commit):
    /// the first occurrence of each is new. Also returns the distinct keys, for the engine to insert.
    package static func predictedNewKeys(_ keys: [[DedupeKey]]) -> (newKeys: [Bool], distinct: Set<DedupeKey>) {
        var distinct = Set<DedupeKey>()
        var flags: [Bool] = []
        flags.reserveCapacity(keys.reduce(0) { $0 + $1.count })
        for eventKeys in keys {
            for key in eventKeys { flags.append(distinct.insert(key).inserted) }
        }
        return (flags, distinct)
    }
}

/// A dedupe key compared byte for byte, as the databases compare it: Swift's `String` equality would make
/// canonically equivalent ids (NFC and NFD) one key where the database stores two.
package struct DedupeKey: Hashable, Sendable {
    package var pushID: String
    package var key: String

    package init(pushID: String, key: String) {
        self.pushID = pushID
        self.key = key
    }

    package static func == (a: DedupeKey, b: DedupeKey) -> Bool {
        a.pushID.utf8.elementsEqual(b.pushID.utf8) && a.key.utf8.elementsEqual(b.key.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        for byte in pushID.utf8 { hasher.combine(byte) }
        hasher.combine(0xFF as UInt8)
        for byte in key.utf8 { hasher.combine(byte) }
    }

    /// The order of the dedupe primary key (push, key), by bytes as SQLite's BINARY collation and
    /// PostgreSQL's `C`-ordered comparisons see them.
    package static func precedes(_ a: DedupeKey, _ b: DedupeKey) -> Bool {
        a.pushID.utf8.elementsEqual(b.pushID.utf8)
            ? a.key.utf8.lexicographicallyPrecedes(b.key.utf8) : a.pushID.utf8.lexicographicallyPrecedes(b.pushID.utf8)
    }
}
