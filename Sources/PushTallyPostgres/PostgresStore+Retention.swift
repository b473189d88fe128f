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
            try await connection.run("SELECT pg_advisory_lock(\(Self.retentionLock))", logger: logger)
            do {
                let due = try await EventPartitions.existing(on: connection, logger: logger)
                    .filter { day, _ in (day + 1) * EventPartitions.dayMillis <= cutoffMillis }
                // All in one transaction: one brief exclusive lock on `events`, one WAL flush.
                if !due.isEmpty {
                    try await PartitionMigration.inTransaction(connection, logger: logger) {
                        for name in due.sorted(by: { $0.key < $1.key }).map(\.value) {
                            try await connection.run(
                                PostgresQuery(unsafeSQL: "ALTER TABLE events DETACH PARTITION \(name)"), logger: logger)
                            try await connection.run("INSERT INTO retired_events (name) VALUES (\(name))", logger: logger)
                        }
                    }
                }
                let folded = try await self.foldRetired(on: connection)
                // Days whose partitions are gone keep no rows of their own: rows per push stay bounded.
                let kept = try await EventPartitions.existing(on: connection, logger: logger).keys.min() ?? .max
                try await DatedShards.compact(
                    before: min(EventPartitions.day(ofMillis: cutoffMillis), kept), on: connection, logger: logger)
                try await connection.run("SELECT pg_advisory_unlock(\(Self.retentionLock))", logger: logger)
                return folded
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.retentionLock))", logger: logger)
                throw error
            }
        }
    }

    /// Finishes the folds of retired partitions (a prune that stopped part way), under the retention lock.
    func foldRetiredPartitions() async throws {
        let logger = logger
        try await Self.withConnection(client, timeout: connectionTimeout) { connection in
            guard try await PartitionMigration.relationKind("retired_events", on: connection, logger: logger) != nil else { return }
            try await connection.run("SELECT pg_advisory_lock(\(Self.retentionLock))", logger: logger)
            do {
                _ = try await self.foldRetired(on: connection)
                try await connection.run("SELECT pg_advisory_unlock(\(Self.retentionLock))", logger: logger)
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.retentionLock))", logger: logger)
                throw error
            }
        }
    }

    /// Folds each retired partition, from its day's rollup rows when they hold exactly its events' counts
    /// (``DatedShards``), else from its events from its mark (``RetiredFold``), then drops it.
    private func foldRetired(on connection: PostgresConnection) async throws -> Int {
        var total = 0
        let retired = try await connection.run("SELECT name, folded_through FROM retired_events ORDER BY name", logger: logger)
        for (name, mark) in try retired.decode((String, String?).self).map({ $0 }) {
            if mark == nil, let day = EventPartitions.day(ofName: name),
                let folded = try await foldDated(day: day, table: name, on: connection)
            {
                total += folded
                continue
            }
            let fold = RetiredFold(
                table: name, maturityWindow: configuration.maturityWindowMillis, book: actionIDs, connection: connection,
                logger: logger)
            total += try await fold.run(from: mark)
            logger.debug("dropped raw event partition", metadata: ["partition": "\(name)"])
        }
        return total
    }

    /// Folds a retired day from its rollup rows and drops its table in one transaction; returns the rows it
    /// held, or `nil` (nothing done) when the day's rows cannot stand for its events.
    ///
    /// The default partition is locked against writers first: an event of this day stored after the detach
    /// landed there, counted in the day's rows but kept, so the day then folds from its events instead.
    private func foldDated(day: Int64, table: String, on connection: PostgresConnection) async throws -> Int? {
        let logger = logger
        let (lower, upper) = (day * EventPartitions.dayMillis, (day + 1) * EventPartitions.dayMillis)
        return try await PartitionMigration.inTransaction(connection, logger: logger) { () async throws -> Int? in
            try await connection.run(
                PostgresQuery(unsafeSQL: "LOCK TABLE \(EventPartitions.defaultPartition) IN SHARE MODE"), logger: logger)
            let strays = try await connection.run(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT EXISTS (SELECT 1 FROM \(EventPartitions.defaultPartition) \
                        WHERE received_at >= \(lower) AND received_at < \(upper))
                        """), logger: logger)
            guard try strays.first?.decode(Bool.self) == false, try await DatedShards.isDated(day, on: connection, logger: logger)
            else { return nil }
            let count = try await connection.run(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger)
            let rows = try count.first?.decode(Int.self) ?? 0
            try await DatedShards.fold(day: day, on: connection, logger: logger)
            try await connection.run(PostgresQuery(unsafeSQL: "DROP TABLE \(table)"), logger: logger)
            try await connection.run("DELETE FROM retired_events WHERE name = \(table)", logger: logger)
            logger.debug("dropped raw event partition, folded from its day's rollups", metadata: ["partition": "\(table)"])
            return rows
        }
    }
}
