import PostgresNIO
import PushTallyCore

/// What the attribution probe read of the touched devices (``PostgresAttribution/probe(_:windows:keys:)``):
/// each loaded device's stored events in reach, the prune cutoff, and whether any of the commit's dedupe keys
/// was stored already. Turned into credits by ``credits(_:events:windows:)``; the one-statement commit also
/// hands what it saw to its guard, which refuses the statement if any of it moved meanwhile.
struct AttributionProbe {
    /// The loaded devices' stored events in reach (an empty list for a device with none).
    private(set) var history: [String: [AttributionPlanner.Event]] = [:]
    /// The `meta` prune cutoff as stored (text), `nil` when nothing was ever pruned.
    private(set) var pruned: String?
    /// Whether any of the dedupe keys asked about is stored (a retry, or another collector's event).
    private(set) var keysSeen = false

    /// The stored rows the guard compares against, one entry per event: its device, id, credit code (`-1` for
    /// none) and credited push (`''` for none), as the guard's SQL reads them.
    private(set) var seen: (devices: [String], ids: [Int64], codes: [Int64], pushes: [String]) = ([], [], [], [])

    init(_ rows: [PostgresRow]) throws {
        for row in rows {
            let (device, id, kind, pushID, action, time, receiptID, code, credited, value, currency, pruned, keysSeen) = try row.decode(
                (String, Int64?, Int?, String?, String?, Int64?, String?, Int?, String?, Int64?, String?, String?, Bool).self)
            self.pruned = pruned
            self.keysSeen = self.keysSeen || keysSeen
            guard let id, let kind, let time else {
                history[device, default: []] += []
                continue
            }
            history[device, default: []].append(
                PostgresAttribution.event(
                    id: id, kind: kind, pushID: pushID, action: action, time: time, receiptID: receiptID, code: code,
                    credited: credited, value: value, currency: currency))
            seen.devices.append(device)
            seen.ids.append(id)
            seen.codes.append(Int64(code ?? -1))
            seen.pushes.append(credited ?? "")
        }
    }

    /// The credits the commit's events give: new sessions' and conversions' (by index into `events`) and
    /// stored rows' that move.
    struct Credits {
        var fresh: [(index: Int, change: AttributionPlanner.Change)] = []
        var moves: [AttributionPlanner.Change] = []
    }

    /// Plans the loaded devices' credits with the commit's new events (`events`, each with whether it is a
    /// retry) joined to their history; new rows get ids above every stored one, as the identity will give them.
    func credits(
        _ sorted: [(deviceID: String, touch: AttributionTouches.Touch)], events: [(StoredEvent, Bool)],
        windows: AttributionWindows
    ) -> Credits {
        var history = history
        let firstNew = Int64.max - Int64(events.count)
        for (index, (event, duplicate)) in events.enumerated() where !duplicate {
            guard let device = event.deviceID, history[device] != nil else { continue }
            history[device]?.append(
                AttributionPlanner.Event(
                    row: firstNew + Int64(index), kind: event.kind, pushID: event.pushID, action: event.action,
                    time: event.eventTime, clientID: event.receiptID, attribution: nil, valueMicros: event.valueMicros,
                    currency: event.currency))
        }
        let planner = AttributionPlanner(windows: windows)
        let frozenBefore = pruned.flatMap { Int64($0) }.map { $0 + windows.lookbackMillis } ?? .min
        var credits = Credits()
        for (deviceID, touch) in sorted {
            guard let events = history[deviceID] else { continue }
            for change in planner.changes(events, from: touch.from, frozenBefore: frozenBefore) {
                if change.event.row >= firstNew {
                    credits.fresh.append((Int(change.event.row - firstNew), change))
                } else {
                    credits.moves.append(change)
                }
            }
        }
        return credits
    }
}
