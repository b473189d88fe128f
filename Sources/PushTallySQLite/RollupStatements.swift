import GRDB
import PushTallyCore

/// The writer connection's rollup statements (``AdditiveStatement``), prepared once and kept across commits.
///
/// The histogram tables (``TimingTable``, ``MediaRollupWriter``) name only the blocks of buckets a row changes
/// (``HistogramRun``), so a commit of many pushes uses dozens of distinct statements; finding each again by its
/// SQL text in every commit cost the one writer thread a noticeable share of a commit. Here each is found by its
/// table, target and run. A run is one of 55 for time to display (120 for extension times), so the cache stays
/// bounded.
///
/// Only used inside the store's writes, which the pool runs one at a time on its one writer connection:
/// that is what makes the unsynchronised state safe. A statement belongs to its connection, so a write on
/// another connection starts the cache over.
final class RollupStatements: @unchecked Sendable {
    private struct Key: Hashable {
        let table: RollupTable
        let target: RollupTarget
        /// `nil`: every value column; otherwise the table's own number for the columns it names.
        let run: Int?
    }

    private var prepared: [Key: AdditiveStatement] = [:]
    private var connection: SQLiteConnection?

    /// `table`'s statement in `target`, naming every value column.
    func statement(_ table: RollupTable, into target: RollupTarget, in db: Database) throws -> AdditiveStatement {
        try statement(table, into: target, run: nil, values: table.values, in: db)
    }

    /// `table`'s statement in `target` naming `values`, known by `run` (one number per distinct `values`).
    func statement(
        _ table: RollupTable, into target: RollupTarget, run: Int?, values: @autoclosure () -> [RollupTable.Column],
        in db: Database
    ) throws -> AdditiveStatement {
        if db.sqliteConnection != connection {
            prepared = [:]
            connection = db.sqliteConnection
        }
        let key = Key(table: table, target: target, run: run)
        if let statement = prepared[key] { return statement }
        let statement = try AdditiveStatement(sql: AdditiveSQL(table, into: target, values: values()), in: db)
        prepared[key] = statement
        return statement
    }
}
