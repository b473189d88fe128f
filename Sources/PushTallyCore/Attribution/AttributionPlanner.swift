/// Attributes a device's sessions and conversions to pushes, by event time (``AttributionWindows``):
///
/// - A session is a **direct open** of the push the device tapped latest within the direct window before it;
///   otherwise an **influenced open** of the push displayed latest within the influence window before it among
///   the device's last 10 displays, skipping a push that already has an influenced open on this device (a push
///   counts at most one per device); otherwise **unattributed**. Sessions are taken in time order, so the
///   credit goes to the earliest session a push explains.
/// - A conversion is **direct** for the push tapped latest within the conversion window before it; otherwise
///   **influenced** by the push displayed latest within the influence window before it; otherwise
///   unattributed.
///
/// "Tap" is any action but `dismiss`; "before" includes the same instant; ties in time go to the greater push
/// id, so every engine and every arrival order agree. Retries (duplicates) take no part.
///
/// An event arriving late changes only what comes after it in time: the engine reads the device's events from
/// ``AttributionWindows/lookbackMillis`` before the earliest new event and asks for ``changes(_:from:frozenBefore:)``
/// from that time on; the earlier sessions' stored credits stand.
package struct AttributionPlanner: Sendable {
    /// A stored event of one device, as the planner needs it.
    package struct Event: Sendable, Hashable {
        /// The engine's row id, handed back in ``Change``.
        package var row: Int64
        package var kind: EventKind
        package var pushID: String
        package var action: String
        package var time: Int64
        /// A session's id (orders sessions of the same instant).
        package var clientID: String
        /// The stored attribution of a session or conversion; `nil` when it has none yet.
        package var attribution: Attribution?
        package var valueMicros: Int64?
        package var currency: String?

        package init(
            row: Int64, kind: EventKind, pushID: String, action: String, time: Int64, clientID: String?,
            attribution: Attribution?, valueMicros: Int64?, currency: String?
        ) {
            self.row = row
            self.kind = kind
            self.pushID = pushID
            self.action = action
            self.time = time
            self.clientID = clientID ?? ""
            self.attribution = attribution
            self.valueMicros = valueMicros
            self.currency = currency
        }
    }

    /// A session or conversion whose attribution is new or differs from the stored one.
    package struct Change: Sendable, Hashable {
        package var event: Event
        package var new: Attribution
        package var old: Attribution? { event.attribution }
    }

    package let windows: AttributionWindows

    package init(windows: AttributionWindows) {
        self.windows = windows
    }

    /// The attributions to store for `events` (one device's non-duplicate events from
    /// `from - lookbackMillis` on, in any order): every session and conversion at or after `from` is
    /// recomputed, except those before `frozenBefore`, whose window reaches events already pruned (they keep
    /// their stored attribution, or get one from what is left if they have none).
    package func changes(_ events: [Event], from: Int64, frozenBefore: Int64 = .min) -> [Change] {
        let order = { (a: Event, b: Event) in (a.time, a.pushID) < (b.time, b.pushID) }
        let displays = events.filter { $0.kind == .display }.sorted(by: order)
        let taps = events.filter { $0.kind == .action && AttributionTouches.takesPart(kind: $0.kind, action: $0.action) }
            .sorted(by: order)
        let sessions = events.filter { $0.kind == .session }.sorted { ($0.time, $0.clientID, $0.row) < ($1.time, $1.clientID, $1.row) }
        let horizon = max(from, frozenBefore)
        var changes: [Change] = []
        var credited = Set<String>()
        for session in sessions {
            var attribution = session.attribution
            if attribution == nil || session.time >= horizon {
                attribution = attributeSession(at: session.time, displays: displays, taps: taps, credited: credited)
            }
            if case .influenced(let pushID)? = attribution { credited.insert(pushID) }
            if let attribution, attribution != session.attribution { changes.append(Change(event: session, new: attribution)) }
        }
        for conversion in events where conversion.kind == .conversion {
            guard conversion.attribution == nil || conversion.time >= horizon else { continue }
            let attribution = attributeConversion(at: conversion.time, displays: displays, taps: taps)
            if attribution != conversion.attribution { changes.append(Change(event: conversion, new: attribution)) }
        }
        return changes
    }

    private func attributeSession(at time: Int64, displays: [Event], taps: [Event], credited: Set<String>) -> Attribution {
        if let tap = latest(taps, atOrBefore: time), tap.time >= time - windows.directMillis {
            return .direct(pushID: tap.pushID)
        }
        let end = countAtOrBefore(displays, time)
        for display in displays[max(0, end - AttributionWindows.influenceCandidates)..<end].reversed() {
            if display.time < time - windows.influenceMillis { break }
            if !credited.contains(display.pushID) { return .influenced(pushID: display.pushID) }
        }
        return .unattributed
    }

    private func attributeConversion(at time: Int64, displays: [Event], taps: [Event]) -> Attribution {
        if let tap = latest(taps, atOrBefore: time), tap.time >= time - windows.conversionMillis {
            return .direct(pushID: tap.pushID)
        }
        if let display = latest(displays, atOrBefore: time), display.time >= time - windows.influenceMillis {
            return .influenced(pushID: display.pushID)
        }
        return .unattributed
    }

    private func latest(_ sorted: [Event], atOrBefore time: Int64) -> Event? {
        let end = countAtOrBefore(sorted, time)
        return end > 0 ? sorted[end - 1] : nil
    }

    /// How many of `sorted` (by time) are at or before `time`: a binary search, as a device may have many.
    private func countAtOrBefore(_ sorted: [Event], _ time: Int64) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
