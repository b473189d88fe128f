import Logging
import PostgresNIO
import PushTallyCore

/// The attribution half of a one-statement group commit whose events include sessions or conversions: the
/// touched devices' history read in one statement before it (no locks held), the new events' credits planned
/// from it, and what the statement's guard (``AttributionGuardSchema``) must find unchanged under its locks
/// for those credits to stand. A commit whose plan would move stored rows' credits, or whose keys were seen
/// before, is left to the transaction path, which reads and writes under its locks.
struct AttributedCommit {
    let probe: AttributionProbe
    /// The new events' credits, by index into the commit's events.
    let credits: [Int: Attribution]
    private let devices: [String]
    private let froms: [Int64]
    private let lookback: Int64

    /// Reads and plans; counts the new credits into `counter`. `nil` sends the commit to the transaction path
    /// (nothing was counted then).
    static func plan(
        _ sorted: [(deviceID: String, touch: AttributionTouches.Touch)], keys: [DedupeKey], events: [(StoredEvent, Bool)],
        windows: AttributionWindows, counter: inout RollupCounter, on connection: PostgresConnection, logger: Logger
    ) async throws -> AttributedCommit? {
        let rows = try await connection.run(PostgresAttribution.probe(sorted, windows: windows, keys: keys), logger: logger)
        let probe = try AttributionProbe(rows)
        // A key stored already makes an event a retry, which the plan counted as new.
        guard !probe.keysSeen else { return nil }
        let planned = probe.credits(sorted, events: events, windows: windows)
        guard planned.moves.isEmpty else { return nil }
        var credits: [Int: Attribution] = [:]
        for (index, change) in planned.fresh {
            credits[index] = change.new
            counter.attribute(change)
        }
        let loaded = sorted.filter { probe.history[$0.deviceID] != nil }
        return AttributedCommit(
            probe: probe, credits: credits, devices: loaded.map(\.deviceID), froms: loaded.map(\.touch.from),
            lookback: windows.lookbackMillis)
    }

    /// The guard's arguments after the ingest guard's: the loaded devices and their reach, the stored rows
    /// seen there, and the prune cutoff seen.
    func guardArguments(_ sql: inout SQLBuilder) -> [String] {
        let seen = probe.seen
        return [
            sql.bind(devices) + "::text[]", sql.bind(froms) + "::bigint[]", sql.bind(lookback),
            sql.bind(seen.devices) + "::text[]", sql.bind(seen.ids) + "::bigint[]", sql.bind(seen.codes) + "::bigint[]",
            sql.bind(seen.pushes) + "::text[]", sql.bind(AttributionSchema.prunedBeforeKey), sql.bind(probe.pruned) + "::text",
        ]
    }
}
