import Logging
import PostgresNIO
import PushTallyCore

/// Folds a retired day partition into the ledger, then drops it. Its events are counted exactly as a row by
/// row prune counts what it deletes (``PostgresEventWriter/count(_:maturityWindow:names:on:logger:)``, the
/// shared ``RollupCounter``), so every rollup, present or added later, folds the same way, with no second
/// counting of its own to keep in step.
///
/// Pushes are folded in batches by push id, each a transaction holding its pushes' timing locks (as every
/// writer of timing does) and committing its mark (the last push id folded, in `retired_events`) with its
/// ledger rows, so a run that stops part way is finished by the next from its mark. A batch's rows are read
/// through a cursor in chunks, so a push with millions of events a day is never held in memory at once.
struct RetiredFold {
    let table: String
    let maturityWindow: Int64
    let book: NameBook
    let connection: PostgresConnection
    let logger: Logger
    static let pushesPerBatch = 500

    /// Folds the table from `mark` (`nil`: nothing folded yet) and drops it; returns the rows it folded.
    func run(from mark: String?) async throws -> Int {
        var mark = mark
        var total = 0
        while true {
            let (next, folded) = try await PartitionMigration.inTransaction(connection, logger: logger) {
                try await foldBatch(after: mark)
            }
            total += folded
            guard let next else { return total }
            mark = next
        }
    }

    /// Folds the next batch of pushes after `mark`; returns the new mark (`nil` when that was the last batch,
    /// whose transaction also drops the table) and the rows folded.
    private func foldBatch(after mark: String?) async throws -> (mark: String?, folded: Int) {
        // From the first push id on, `''` (sessions and conversions credited to no push) included.
        let candidates = try await connection.fetch(
            Queries.SelectRetiredPushIDs(table: table, after: mark, limit: Self.pushesPerBatch + 1), logger: logger)
        let pushIDs = Array(candidates.prefix(Self.pushesPerBatch))
        var folded = 0
        if !pushIDs.isEmpty {
            try await PushLocks.lock(Set(pushIDs), mode: .shared, on: connection, logger: logger)
            try await connection.run(Queries.DeclareRetiredEventsCursor(table: table, pushIDs: pushIDs), logger: logger)
            while true {
                let fetch = Queries.FetchFromCursor(cursor: "retired", rows: MaintenancePlan.rebuildChunk)
                let events = try StoredEvent.counted(try await connection.run(PostgresQuery(fetch), logger: logger))
                guard !events.isEmpty else { break }
                let names = try await PostgresNames.fold(
                    BoundedNames.pairs(events.lazy.map(\.0)), book: book, admit: false, inTransaction: true, on: connection, logger: logger)
                let counter = try await PostgresEventWriter.count(
                    events, maturityWindow: maturityWindow, names: names, on: connection, logger: logger)
                try await PostgresRollupWriter.write(counter.accumulator, to: .ledger, shard: 0, on: connection, logger: logger)
                folded += events.count
            }
            try await connection.run(Queries.CloseCursor(cursor: "retired"), logger: logger)
        }
        guard candidates.count > pushIDs.count, let next = pushIDs.last else {
            try await connection.run(Queries.DropRetiredPartition(name: table), logger: logger)
            try await connection.run(Queries.DeleteRetiredPartition(name: table), logger: logger)
            return (nil, folded)
        }
        try await connection.run(Queries.MarkRetiredFoldedThrough(name: table, pushID: next), logger: logger)
        return (next, folded)
    }
}
