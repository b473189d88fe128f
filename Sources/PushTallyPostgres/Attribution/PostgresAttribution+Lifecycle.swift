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
            Queries.DeclareReattributionCursor(sessionKind: Int64(EventKind.session.rawValue)), logger: logger)
        var changes: [AttributionPlanner.Change] = []
        var device: String?
        var history: [AttributionPlanner.Event] = []
        while true {
            let rows = try await connection.fetch(
                Queries.FetchReattributionHistory(rows: MaintenancePlan.rebuildChunk), logger: logger)
            guard !rows.isEmpty else { break }
            for (deviceID, event) in rows {
                if deviceID != device {
                    changes += planner.changes(history, from: .min, frozenBefore: frozenBefore)
                    (device, history) = (deviceID, [])
                }
                history.append(event)
            }
        }
        changes += planner.changes(history, from: .min, frozenBefore: frozenBefore)
        try await connection.run(Queries.CloseCursor(cursor: "reattribute"), logger: logger)
        for start in stride(from: 0, to: changes.count, by: 10_000) {
            _ = try await update(Array(changes[start..<min(changes.count, start + 10_000)]), on: connection, logger: logger)
        }
    }

    /// Sessions and conversions earlier than this keep their credit: their windows reach events pruned.
    static func frozenBefore(windows: AttributionWindows, on connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        let pruned = try await connection.fetch(Queries.SelectPrunedBefore(), logger: logger).first ?? nil
        return pruned.map { $0 + windows.lookbackMillis } ?? .min
    }

    /// Records a prune's cutoff (only ever moving forward), before anything is deleted.
    static func notePruned(before cutoff: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(Queries.NotePrunedBefore(cutoff: cutoff), logger: logger)
    }
}
