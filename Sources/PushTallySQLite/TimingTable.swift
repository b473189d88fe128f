import GRDB
import PushTallyCore

/// SQLite's statements for the time-to-display tables (``TimingColumns``: one row per push, a column per bucket).
enum TimingTable {

    /// Adds `histogram` to the push's row in `table`, creating it (see ``Upserts``).
    static func add(_ histogram: LatencyHistogram, pushID: String, to target: RollupTarget, in db: Database) throws {
        var upserts = Upserts(target: target)
        try upserts.add(histogram, pushID: pushID, in: db)
    }

    /// One upsert per push naming the run of columns from its first to its last changed bucket: a commit
    /// usually touches a few neighbouring buckets of a push, an upsert of all 40 columns cost ingest a third,
    /// and one upsert per bucket cost a statement per receipt. A run is one of 820, so the connection's
    /// statement cache stays bounded.
    struct Upserts {
        let target: RollupTarget
        private var statements: [Int: BoundStatement] = [:]

        init(target: RollupTarget) {
            self.target = target
        }

        mutating func add(_ histogram: LatencyHistogram, pushID: String, in db: Database) throws {
            let counts = histogram.counts
            guard let first = counts.firstIndex(where: { $0 != 0 }), let last = counts.lastIndex(where: { $0 != 0 }) else { return }
            let run = first * TimingColumns.count + last
            let statement = try statements[run] ?? prepare(run, columns: first...last, in: db)
            statement.bind(1, pushID)
            for bucket in first...last { statement.bind(Int32(bucket - first + 2), counts[bucket]) }
            try statement.execute()
        }

        private mutating func prepare(_ run: Int, columns: ClosedRange<Int>, in db: Database) throws -> BoundStatement {
            let sql = RunUpserts.shared.sql(.timing, into: target, run: run, values: Array(RollupTable.timing.values[columns]))
            let statement = try BoundStatement(db, sql: sql)
            statements[run] = statement
            return statement
        }
    }
}
