import Logging
import PostgresNIO
import PushTallyCore

/// Retention by whole days: a day partition wholly before the cutoff is detached from `events` (a catalog
/// change, however many rows it holds), its rows are folded into the ledger summed by PostgreSQL
/// (``RetiredFold``), each batch committed with the mark of how far it got (`retired_events`), and the table
/// is dropped, its disk space given back at once. A crash part way leaves the mark, and the next prune or
/// rebuild goes on from it.
extension PostgresStore {
    /// Serialises retention's folds between collectors (apart from the migration lock, so a long fold never
    /// holds up a collector starting).
    static let retentionLock: Int64 = PostgresSchema.migrationLock + 1

    /// Detaches every day partition wholly before `cutoffMillis`, then folds and drops every retired one;
    /// returns the rows folded.
    func dropPartitions(before cutoffMillis: Int64) async throws -> Int {
        let logger = logger
        return try await Self.withConnection(client, timeout: connectionTimeout) { connection in
            guard try await PartitionMigration.relationKind("events", on: connection, logger: logger) == "p" else { return 0 }
            try await connection.run(Queries.AdvisoryLock(key: Self.retentionLock), logger: logger)
            do {
                let due = try await EventPartitions.existing(on: connection, logger: logger)
                    .filter { day, _ in (day + 1) * EventPartitions.dayMillis <= cutoffMillis }
                // All in one transaction: one brief exclusive lock on `events`, one WAL flush.
                if !due.isEmpty {
                    try await PartitionMigration.inTransaction(connection, logger: logger) {
                        for name in due.sorted(by: { $0.key < $1.key }).map(\.value) {
                            try await connection.run(Queries.DetachDayPartition(name: name), logger: logger)
                            try await connection.run(Queries.InsertRetiredPartition(name: name), logger: logger)
                        }
                    }
                }
                let folded = try await self.foldRetired(on: connection)
                // Days whose partitions are gone keep no rows of their own: rows per push stay bounded.
                let kept = try await EventPartitions.existing(on: connection, logger: logger).keys.min() ?? .max
                try await DatedShards.compact(
                    before: min(EventPartitions.day(ofMillis: cutoffMillis), kept), on: connection, logger: logger)
                try await connection.run(Queries.AdvisoryUnlock(key: Self.retentionLock), logger: logger)
                return folded
            } catch {
                _ = try? await connection.query(PostgresQuery(Queries.AdvisoryUnlock(key: Self.retentionLock)), logger: logger)
                throw error
            }
        }
    }

    /// Finishes the folds of retired partitions (a prune that stopped part way), under the retention lock.
    func foldRetiredPartitions() async throws {
        let logger = logger
        try await Self.withConnection(client, timeout: connectionTimeout) { connection in
            guard try await PartitionMigration.relationKind("retired_events", on: connection, logger: logger) != nil else { return }
            try await connection.run(Queries.AdvisoryLock(key: Self.retentionLock), logger: logger)
            do {
                _ = try await self.foldRetired(on: connection)
                try await connection.run(Queries.AdvisoryUnlock(key: Self.retentionLock), logger: logger)
            } catch {
                _ = try? await connection.query(PostgresQuery(Queries.AdvisoryUnlock(key: Self.retentionLock)), logger: logger)
                throw error
            }
        }
    }

    /// Folds the retired partitions: those whose days' rollup rows hold exactly their events' counts all at once
    /// from those rows (``DatedShards``, ``foldDated(_:on:)``), the rest each from its events from its mark
    /// (``RetiredFold``); each is dropped with its fold.
    private func foldRetired(on connection: PostgresConnection) async throws -> Int {
        let retired = try await connection.fetch(Queries.SelectRetiredPartitions(), logger: logger)
        let fresh = retired.compactMap { name, mark in mark == nil ? EventPartitions.day(ofName: name).map { ($0, name) } : nil }
        let (dated, total) = try await foldDated(Dictionary(fresh, uniquingKeysWith: { first, _ in first }), on: connection)
        var folded = total
        for (name, mark) in retired where !dated.contains(name) {
            let fold = RetiredFold(
                table: name, maturityWindow: configuration.maturityWindowMillis, book: nameBook, connection: connection,
                logger: logger)
            folded += try await fold.run(from: mark)
            logger.debug("dropped raw event partition", metadata: ["partition": "\(name)"])
        }
        return folded
    }

    /// Folds the retired `days` (day: table) whose rollup rows stand for their events from those rows, one
    /// grouped statement per rollup table for all of them, and drops their tables, in one transaction; returns
    /// the tables dropped and the rows they held.
    ///
    /// The default partition is locked against writers first: an event of such a day stored after the detach
    /// landed there, counted in the day's rows but kept, so that day folds from its events instead.
    private func foldDated(_ days: [Int64: String], on connection: PostgresConnection) async throws -> (Set<String>, Int) {
        guard !days.isEmpty else { return ([], 0) }
        let logger = logger
        return try await PartitionMigration.inTransaction(connection, logger: logger) { () async throws -> (Set<String>, Int) in
            try await connection.run(Queries.LockTables(tables: [EventPartitions.defaultPartition], mode: "SHARE"), logger: logger)
            let strays = Set(try await connection.fetch(
                Queries.SelectStrayDays(firstDay: days.keys.min() ?? 0, lastDay: days.keys.max() ?? 0), logger: logger))
            var due: [Int64: String] = [:]
            for (day, table) in days where !strays.contains(day) {
                if try await DatedShards.isDated(day, on: connection, logger: logger) { due[day] = table }
            }
            guard !due.isEmpty else { return ([], 0) }
            var rows = 0
            for table in due.values.sorted() {
                rows += try await connection.fetch(Queries.CountTableRows(table: table), logger: logger).first ?? 0
            }
            try await DatedShards.fold(days: Set(due.keys), on: connection, logger: logger)
            for table in due.values.sorted() {
                try await connection.run(Queries.DropRetiredPartition(name: table), logger: logger)
                try await connection.run(Queries.DeleteRetiredPartition(name: table), logger: logger)
                logger.debug("dropped raw event partition, folded from its day's rollups", metadata: ["partition": "\(table)"])
            }
            return (Set(due.values), rows)
        }
    }
}
