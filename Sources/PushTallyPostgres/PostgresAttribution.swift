import Logging
import PostgresNIO
import PushTallyCore

/// Runs ``AttributionPlanner`` for the devices a group commit touches, before its raw rows are inserted:
/// one statement probes every touched device and loads the history of those that need attributing, the new
/// events join that history in memory, and the new sessions' and conversions' credits are inserted with
/// them; only stored rows whose credit moves cost an `UPDATE`.
///
/// The caller holds the devices' advisory locks (``IngestLocks``) from before this read to its commit, so a
/// collector committing events of the same device either sees this one's or is seen by it.
enum PostgresAttribution {
    /// The events' columns as the planner reads them, after the device id.
    private static let columns = """
        e.id, e.kind, e.push_id, e.action, e.event_time, e.receipt_id, e.attribution, e.attributed_push, \
        e.value_micros, e.currency
        """

    /// Attributes the touched devices' sessions and conversions, counting every move into `counter`.
    /// Returns the credits of new events (indexes into `events`), to be inserted with them.
    static func attribute(
        _ touches: AttributionTouches, events: [(StoredEvent, Bool)], windows: AttributionWindows,
        counter: inout RollupCounter, on connection: PostgresConnection, logger: Logger
    ) async throws -> [Int: Attribution] {
        guard !touches.isEmpty else { return [:] }
        let sorted = touches.sorted
        let rows = try await connection.run(probe(sorted, windows: windows, keys: []), logger: logger)
        guard !rows.isEmpty else { return [:] }
        let credits = try AttributionProbe(rows).credits(sorted, events: events, windows: windows)
        var fresh: [Int: Attribution] = [:]
        for (index, change) in credits.fresh {
            fresh[index] = change.new
            counter.attribute(change)
        }
        // Only rows really updated count: a prune may have deleted (and folded) one meanwhile.
        let updated = try await update(credits.moves, on: connection, logger: logger)
        for change in credits.moves where updated.contains(change.event.row) { counter.attribute(change) }
        return fresh
    }

    /// The probe of the touched devices, read by ``AttributionProbe``: every device with a new session or
    /// conversion, and every other one that has a session or conversion after its new events, with its stored
    /// events in reach (one row with `NULL`s when it has none), the prune cutoff, and whether any of `keys`
    /// is stored already.
    static func probe(
        _ sorted: [(deviceID: String, touch: AttributionTouches.Touch)], windows: AttributionWindows, keys: [DedupeKey]
    ) -> PostgresQuery {
        let devices = sorted.map(\.deviceID)
        let froms = sorted.map(\.touch.from)
        let outcomes = sorted.map(\.touch.hasOutcome)
        let keyPushes = keys.map(\.pushID)
        let keyValues = keys.map(\.key)
        // A device with only new displays or taps is read only if it has a session or conversion after them.
        return """
            SELECT t.d, \(unescaped: columns), (SELECT value FROM meta WHERE key = \(AttributionSchema.prunedBeforeKey)),
                EXISTS (SELECT 1 FROM unnest(\(keyPushes)::text[], \(keyValues)::text[]) AS k(p, v)
                    JOIN dedupe ON dedupe.push_id = k.p AND dedupe.key = k.v)
            FROM unnest(\(devices)::text[], \(froms)::bigint[], \(outcomes)::boolean[]) AS t(d, f, o)
            LEFT JOIN events e ON e.device_id = t.d AND e.device_id IS NOT NULL
                AND e.event_time >= t.f - \(windows.lookbackMillis) AND NOT e.duplicate
            WHERE t.o OR EXISTS (
                SELECT 1 FROM events s WHERE s.device_id = t.d AND s.device_id IS NOT NULL AND s.event_time >= t.f
                AND s.kind >= \(Int64(EventKind.session.rawValue)) AND NOT s.duplicate)
            """
    }

    /// Stores new credits on stored rows; returns the ids of the rows updated.
    static func update(
        _ changes: [AttributionPlanner.Change], on connection: PostgresConnection, logger: Logger
    ) async throws -> Set<Int64> {
        guard !changes.isEmpty else { return [] }
        let ordered = changes.sorted { $0.event.row < $1.event.row }
        let ids = ordered.map(\.event.row)
        let codes = ordered.map { Int64($0.new.code) }
        // Unattributed stores no push: '' in the array, NULL in the row.
        let pushes = ordered.map { $0.new.pushID ?? "" }
        let rows = try await connection.run(
            """
            UPDATE events AS e SET attribution = u.a, attributed_push = NULLIF(u.p, '')
            FROM unnest(\(ids)::bigint[], \(codes)::bigint[], \(pushes)::text[]) AS u(id, a, p)
            WHERE e.id = u.id RETURNING e.id
            """, logger: logger)
        return Set(try rows.decode(Int64.self))
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
