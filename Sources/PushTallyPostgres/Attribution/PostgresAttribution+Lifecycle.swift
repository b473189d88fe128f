import Logging
import PostgresNIO
import PushTallyCore

extension PostgresAttribution {
    /// Recomputes every stored credit from the raw events (a rollup rebuild, before it counts them), so a
    /// rebuild re-derives attribution rather than trusting what ingest stored. The caller has locked
    /// `events` against writers.
    static func reattributeAll(windows: AttributionWindows, on connection: PostgresConnection, logger: Logger) async throws {
        let planner = AttributionPlanner(windows: windows)
        let frozenBefore = try await frozenBefore(windows: windows, on: connection, logger: logger)
        // Device by device: the rows of one device come together, so only one device's history is held.
        try await connection.run(
            """
            DECLARE reattribute NO SCROLL CURSOR FOR
            SELECT e.device_id, e.id, e.kind, e.push_id, e.action, e.event_time, e.receipt_id, e.attribution,
                   e.attributed_push, e.value_micros, e.currency
            FROM events e WHERE NOT e.duplicate AND e.device_id IN (
                SELECT device_id FROM events WHERE kind >= \(Int64(EventKind.session.rawValue)) AND device_id IS NOT NULL)
            ORDER BY e.device_id
            """, logger: logger)
        var changes: [AttributionPlanner.Change] = []
        var device: String?
        var history: [AttributionPlanner.Event] = []
        while true {
            let rows = try await connection.run(
                PostgresQuery(unsafeSQL: "FETCH \(MaintenancePlan.rebuildChunk) FROM reattribute"), logger: logger)
            guard !rows.isEmpty else { break }
            for (deviceID, id, kind, pushID, action, time, receiptID, code, credited, value, currency) in try rows.decode(
                (String, Int64, Int, String, String, Int64, String?, Int?, String?, Int64?, String?).self)
            {
                if deviceID != device {
                    changes += planner.changes(history, from: .min, frozenBefore: frozenBefore)
                    (device, history) = (deviceID, [])
                }
                history.append(event(
                    id: id, kind: kind, pushID: pushID, action: action, time: time, receiptID: receiptID, code: code,
                    credited: credited, value: value, currency: currency))
            }
        }
        changes += planner.changes(history, from: .min, frozenBefore: frozenBefore)
        try await connection.run("CLOSE reattribute", logger: logger)
        for start in stride(from: 0, to: changes.count, by: 10_000) {
            _ = try await update(Array(changes[start..<min(changes.count, start + 10_000)]), on: connection, logger: logger)
        }
    }

    /// Sessions and conversions earlier than this keep their credit: their windows reach events pruned.
    static func frozenBefore(windows: AttributionWindows, on connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        let pruned = try await connection.run(
            "SELECT value FROM meta WHERE key = \(AttributionSchema.prunedBeforeKey)", logger: logger
        ).decode(String.self).first.flatMap { Int64($0) }
        return pruned.map { $0 + windows.lookbackMillis } ?? .min
    }

    /// Records a prune's cutoff (only ever moving forward), before anything is deleted.
    static func notePruned(before cutoff: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            INSERT INTO meta (key, value) VALUES (\(AttributionSchema.prunedBeforeKey), \(String(cutoff)))
            ON CONFLICT (key) DO UPDATE SET value = GREATEST(meta.value::bigint, excluded.value::bigint)::text
            """, logger: logger)
    }
}
