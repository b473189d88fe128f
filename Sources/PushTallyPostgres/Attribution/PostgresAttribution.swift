import Logging
import PostgresNIO
import PushTallyCore

/// Runs ``AttributionPlanner`` for the devices a group commit touches, before its raw rows are inserted:
/// one prepared statement (``AttributionProbeStatement``) probes every touched device and loads the history
/// of those that need attributing, the new events join that history in memory, and the new sessions' and
/// conversions' credits are inserted with them; only stored rows whose credit moves cost an `UPDATE`.
///
/// The caller holds the devices' advisory locks (``IngestLocks``) from before this read to its commit, so a
/// collector committing events of the same device either sees this one's or is seen by it.
enum PostgresAttribution {
    /// Attributes the touched devices' sessions and conversions, counting every move into `counter`.
    /// Returns the credits of new events (indexes into `events`), to be inserted with them.
    /// `probed`, when given, holds the probe's rows for exactly `touches`, read under the commit's locks
    /// (``CommitOpenStatement``); without it the probe is run here.
    static func attribute(
        _ touches: AttributionTouches, events: [(StoredEvent, Bool)], windows: AttributionWindows,
        counter: inout RollupCounter, movedDays: inout Set<Int64>, probed: [AttributionProbeStatement.Row]? = nil,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> [Int: Attribution] {
        guard !touches.isEmpty else { return [:] }
        let sorted = touches.sorted
        var rows: [AttributionProbeStatement.Row] = []
        if let probed {
            rows = probed
        } else {
            try connection.ensureOpen()
            for try await row in try await connection.execute(probe(sorted, windows: windows), logger: logger) { rows.append(row) }
        }
        guard !rows.isEmpty else { return [:] }
        var history: [String: [AttributionPlanner.Event]] = [:]
        var pruned: Int64?
        for row in rows {
            let (device, stored, prunedBefore) = decode(row)
            history[device, default: []].append(contentsOf: stored.map { [$0] } ?? [])
            pruned = prunedBefore.flatMap { Int64($0) }
        }
        // New rows get ids above every stored one, as the identity will give them.
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
        let frozenBefore = pruned.map { $0 + windows.lookbackMillis } ?? .min
        var fresh: [Int: Attribution] = [:]
        var moves: [AttributionPlanner.Change] = []
        for (deviceID, touch) in sorted {
            guard let events = history[deviceID] else { continue }
            for change in planner.changes(events, from: touch.from, frozenBefore: frozenBefore) {
                if change.event.row >= firstNew {
                    fresh[Int(change.event.row - firstNew)] = change.new
                    counter.attribute(change)
                } else {
                    moves.append(change)
                }
            }
        }
        // Only rows really updated count: a prune may have deleted (and folded) one meanwhile.
        let updated = try await update(moves, on: connection, logger: logger)
        for change in moves {
            guard let receivedAt = updated[change.event.row] else { continue }
            counter.attribute(change)
            movedDays.insert(EventPartitions.day(ofMillis: receivedAt))
        }
        return fresh
    }

    /// The probe of `sorted` (``AttributionTouches/sorted``).
    static func probe(_ sorted: [(deviceID: String, touch: AttributionTouches.Touch)], windows: AttributionWindows) -> AttributionProbeStatement {
        AttributionProbeStatement(
            devices: sorted.map(\.deviceID), froms: sorted.map(\.touch.from), outcomes: sorted.map(\.touch.hasOutcome),
            lookbackMillis: windows.lookbackMillis)
    }

    /// Stores new credits on stored rows; returns the receive times of the rows updated, by id (a moved credit
    /// counts on the day its event was received: ``DatedShards``).
    static func update(
        _ changes: [AttributionPlanner.Change], on connection: PostgresConnection, logger: Logger
    ) async throws -> [Int64: Int64] {
        guard !changes.isEmpty else { return [:] }
        let ordered = changes.sorted { $0.event.row < $1.event.row }
        let ids = ordered.map(\.event.row)
        let codes = ordered.map { Int64($0.new.code) }
        // Unattributed stores no push: '' in the array, NULL in the row.
        let pushes = ordered.map { $0.new.pushID ?? "" }
        var updated: [Int64: Int64] = [:]
        for (id, receivedAt) in try await connection.fetch(
            Queries.UpdateEventCredits(ids: ids, codes: codes, pushes: pushes), logger: logger)
        {
            updated[id] = receivedAt
        }
        return updated
    }

    /// A row of the probe: its device, the stored event (none for a device with no stored history in reach)
    /// and the prune cutoff.
    private static func decode(_ row: AttributionProbeStatement.Row) -> (String, AttributionPlanner.Event?, String?) {
        let (device, id, kind, pushID, action, time, receiptID, code, credited, value, currency, pruned) = row
        guard let id, let kind, let time else { return (device, nil, pruned) }
        return (device, event(id: id, kind: kind, pushID: pushID, action: action, time: time, receiptID: receiptID,
                              code: code, credited: credited, value: value, currency: currency), pruned)
    }

    static func event(
        id: Int64, kind: Int, pushID: String?, action: String?, time: Int64, receiptID: String?, code: Int?,
        credited: String?, value: Int64?, currency: String?
    ) -> AttributionPlanner.Event {
        AttributionPlanner.Event(
            row: id, kind: EventKind(rawValue: kind) ?? .display, pushID: pushID ?? "", action: action ?? "", time: time,
            clientID: receiptID, attribution: Attribution(code: code, pushID: credited), valueMicros: value,
            currency: currency)
    }
}
