import Foundation
import PushTallyCore

/// Upserts that name a run of a table's value columns (histogram buckets from the first to the last one a row
/// changes: ``TimingTable``, ``MediaRollupWriter``), rendered once per process and shared by every store.
///
/// A commit upserts hundreds of pushes' histograms; rendering each run's SQL again in every commit would cost
/// the one writer thread for statements the connection caches anyway.
final class RunUpserts: @unchecked Sendable {
    static let shared = RunUpserts()

    private struct Key: Hashable {
        let table: RollupTable
        let target: RollupTarget
        let run: Int
    }

    private let lock = NSLock()
    private var rendered: [Key: String] = [:]

    /// The upsert of `table` in `target` naming `values`, known by `run` (one number per distinct `values`).
    func sql(_ table: RollupTable, into target: RollupTarget, run: Int, values: @autoclosure () -> [RollupTable.Column]) -> String {
        let key = Key(table: table, target: target, run: run)
        if let sql = lock.withLock({ rendered[key] }) { return sql }
        let sql = SQLDialect.sqlite.upsert(table, into: target, values: values()).singleRow
        lock.withLock { rendered[key] = sql }
        return sql
    }
}
