import GRDB
import PushTallyCore

/// SQLite's statements for the time-to-display tables (``TimingColumns``: one row per push, a column per bucket).
enum TimingTable {

    /// Adds `histogram` to the push's row in `target`'s table, creating it: one statement per push, naming
    /// the push's ``HistogramRun`` (one statement per bucket would cost a statement per receipt).
    static func add(
        _ histogram: LatencyHistogram, pushID: String, to target: RollupTarget, statements: RollupStatements, in db: Database
    ) throws {
        let counts = histogram.counts
        guard let run = HistogramRun(counts) else { return }
        let statement = try statements.statement(
            .timing, into: target, run: run.id, values: Array(RollupTable.timing.values[run.columns]), in: db)
        try statement.add { statement in
            statement.bind(1, pushID)
            for bucket in run.columns { statement.bind(Int32(bucket - run.columns.lowerBound + 2), counts[bucket]) }
        }
    }
}
