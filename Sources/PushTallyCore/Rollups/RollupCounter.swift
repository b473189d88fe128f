/// Counts stored events into rollup deltas: ingest, imports, pruning and rebuilds count through this one
/// type on every engine, so all of them agree (a recount test holds them to it).
///
/// Unique displays are also timed against their push's `sent_at`; the engine says how to look it up, and
/// it is asked once per push per counter.
package struct RollupCounter {
    package let maturityWindow: Int64
    /// Which names a client chose count under their own name (``BoundedField``); required, so no counting path
    /// can forget the fold the others apply.
    package let names: NameFold
    package private(set) var accumulator = RollupAccumulator()
    private var sentAtByPush: [ExactText: Int64?] = [:]
    /// The last push whose `sent_at` was asked for, with it: a commit's displays mostly repeat their neighbour's
    /// push, and comparing its id costs less than hashing it.
    private var lastSentAt: (pushID: String, sentAt: Int64?)?

    package init(maturityWindow: Int64, names: NameFold) {
        self.maturityWindow = maturityWindow
        self.names = names
    }

    package var isEmpty: Bool { accumulator.isEmpty }

    /// Room for counting `events` events without growing (``RollupAccumulator/reserveCapacity(events:)``).
    package mutating func reserveCapacity(events: Int) {
        accumulator.reserveCapacity(events: events)
        sentAtByPush.reserveCapacity(events)
    }

    /// Counts one event, its names folded. `sentAt` is called at most once per push, only for unique displays.
    package mutating func add(
        pushID: String, kind: EventKind, action: String, eventTime: Int64, receivedAt: Int64, duplicate: Bool,
        appVersion: String?, osVersion: String?, platform: String?, sentAt: (String) throws -> Int64?
    ) rethrows {
        let folded = names.folded(
            pushID: pushID, kind: kind, action: action, appVersion: appVersion, osVersion: osVersion, platform: platform)
        try count(
            pushID: pushID, kind: kind, action: folded.action, eventTime: eventTime, receivedAt: receivedAt,
            duplicate: duplicate, appVersion: folded.appVersion, osVersion: folded.osVersion, platform: folded.platform,
            sentAt: sentAt)
    }

    /// Counts one event whose names are folded.
    private mutating func count(
        pushID: String, kind: EventKind, action: String, eventTime: Int64, receivedAt: Int64, duplicate: Bool,
        appVersion: String?, osVersion: String?, platform: String?, sentAt: (String) throws -> Int64?
    ) rethrows {
        accumulator.add(
            pushID: pushID, kind: kind, action: action, eventTime: eventTime, duplicate: duplicate, appVersion: appVersion,
            osVersion: osVersion, platform: platform)
        guard kind == .display, !duplicate else { return }
        let known: Int64?
        if let lastSentAt, lastSentAt.pushID.isExactly(pushID) {
            known = lastSentAt.sentAt
        } else if let cached = sentAtByPush[ExactText(pushID)] {
            known = cached
            lastSentAt = (pushID, cached)
        } else {
            known = try sentAt(pushID)
            sentAtByPush[ExactText(pushID)] = .some(known)
            lastSentAt = (pushID, known)
        }
        accumulator.addTiming(
            pushID: pushID, eventTime: eventTime, receivedAt: receivedAt, sentAt: known, maturityWindow: maturityWindow)
    }

    /// Counts one stored event with its duplicate flag; a session or conversion counts under its stored
    /// attribution (ingest attributes it with ``attribute(_:)`` instead).
    package mutating func add(_ event: StoredEvent, duplicate: Bool, sentAt: (String) throws -> Int64?) rethrows {
        if !event.kind.namesPush {
            guard !duplicate, let attribution = event.attribution else { return }
            accumulator.addOutcome(
                kind: event.kind, attribution: attribution, eventTime: event.eventTime, valueMicros: event.valueMicros,
                currency: event.currency, sign: 1)
            return
        }
        let folded = names.folded(
            pushID: event.pushID, kind: event.kind, action: event.action, appVersion: event.appVersion,
            osVersion: event.osVersion, platform: event.platform)
        try count(
            pushID: event.pushID, kind: event.kind, action: folded.action, eventTime: event.eventTime,
            receivedAt: event.receivedAt, duplicate: duplicate, appVersion: folded.appVersion, osVersion: folded.osVersion,
            platform: folded.platform, sentAt: sentAt)
        guard event.kind == .display, !duplicate else { return }
        accumulator.addMedia(
            pushID: event.pushID, media: event.media, extensionMillis: event.extensionMillis, eventTime: event.eventTime,
            appVersion: folded.appVersion, osVersion: folded.osVersion)
    }

    /// Moves a session's or conversion's credit from its stored attribution (if any) to the new one.
    package mutating func attribute(_ change: AttributionPlanner.Change) {
        let event = change.event
        if let old = change.old {
            accumulator.addOutcome(
                kind: event.kind, attribution: old, eventTime: event.time, valueMicros: event.valueMicros,
                currency: event.currency, sign: -1)
        }
        accumulator.addOutcome(
            kind: event.kind, attribution: change.new, eventTime: event.time, valueMicros: event.valueMicros,
            currency: event.currency, sign: 1)
    }

    /// The pushes whose `sent_at` counting `events` needs (those with a unique display): an engine that reads
    /// them in one query first, and under the push locks, asks for exactly these.
    package static func timedPushIDs<Events: Sequence>(_ events: Events) -> Set<String>
    where Events.Element == (StoredEvent, Bool) {
        var pushIDs = Set<String>()
        for (event, duplicate) in events where event.kind == .display && !duplicate { pushIDs.insert(event.pushID) }
        return pushIDs
    }
}
