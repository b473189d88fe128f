import CSQLiteSettings
import Foundation
import GRDB
import Logging
import PushTallyCore

/// The embedded store: one SQLite file in WAL mode, one group-commit writer, a pool of readers.
public final class SQLiteStore: Sendable {
    /// The database file's path.
    public let path: String
    /// The device-id secret's file, to back up with the database.
    public let deviceSecretPath: String
    package let pool: DatabasePool
    /// The tunables this store was opened with.
    public let configuration: StoreConfiguration
    let writer: GroupCommitWriter<[IncomingEvent], [Bool]>
    let deviceHasher: DeviceHasher
    /// The most a commit may take before its requests are answered 503: SQLite's lock wait and the commit timeout.
    let commitDeadline: Duration
    /// The admitted names (custom action ids, platforms, versions) and pushes' apps the writer folds by
    /// (``BoundedField``).
    let nameBook: NameBook
    /// The writer connection's rollup statements, kept across commits.
    let rollupStatements = RollupStatements()
    /// The log's size between checkpoints, by the disk's free space.
    let walBudget: WALBudget

    /// Opens (creating if needed) and migrates the database at `path`. The device-id secret lives beside it,
    /// at `path + ".secret"` unless `deviceSecretPath` says otherwise, created on first start: back it up with
    /// the database.
    ///
    /// - Throws: ``StoreError/databaseNewerThanCode(path:)`` for a file from a newer PushTally.
    /// - Parameters:
    ///   - commitTimeout: how long a group commit may take, a wait for a lock another process holds included,
    ///     before its requests are answered 503 (`serve --commit-timeout`).
    ///   - logger: where a stalled commit is reported.
    public init(
        path: String, configuration: StoreConfiguration = StoreConfiguration(), deviceSecretPath: String? = nil,
        commitTimeout: Duration = .seconds(5), logger: Logger = Logger(label: "pushtally.sqlite")
    ) throws {
        self.path = path
        self.deviceSecretPath = deviceSecretPath ?? path + ".secret"
        self.configuration = configuration
        _ = sqliteSettings
        var config = Configuration()
        // A lock another process holds (a `sqlite3` shell in a transaction, a backup) is waited for half the
        // commit's deadline: SQLite then answers `SQLITE_BUSY` (503, the lock named) well before the writer's
        // watchdog would call the same commit stalled, however slowly a loaded machine runs the busy handler.
        let deadlineSeconds = Double(commitTimeout.components.seconds) + Double(commitTimeout.components.attoseconds) / 1e18
        config.busyMode = .timeout(deadlineSeconds / 2)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
        }
        let pool = try DatabasePool(path: path, configuration: config)
        // DatabasePool sets synchronous=NORMAL in WAL mode after prepareDatabase; an ack must survive a
        // power loss, so the one writer connection is set back to FULL here.
        // The automatic checkpoint waits for a larger log than SQLite's default (``checkpointPages``).
        // Its page cache is the configured one (negative: KiB); readers keep SQLite's default.
        // SQLite's own: PostgreSQL's durability and memory are the server's settings, not a connection's.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.checkpointPages)")
            try db.execute(sql: "PRAGMA cache_size = \(-1024 * configuration.sqliteCacheMegabytes)")
        }
        let migrator = Migrations.migrator
        if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
            throw StoreError.databaseNewerThanCode(path: path)
        }
        try migrator.migrate(pool)
        self.pool = pool
        self.deviceHasher = try DeviceHasher.loadOrCreate(at: self.deviceSecretPath)
        let nameBook = NameBook(bounds: configuration.nameBounds)
        self.nameBook = nameBook
        let walBudget = WALBudget(databasePath: path)
        self.walBudget = walBudget
        // A commit waiting on another process's lock is answered by SQLite (503, the lock named) a second
        // before the watchdog would call it stalled.
        let commitDeadline = commitTimeout + .seconds(1)
        self.commitDeadline = commitDeadline
        let watchdog = WriterWatchdog(commitTimeout: commitDeadline, startTimeout: commitDeadline, logger: logger)
        let statements = rollupStatements
        self.writer = GroupCommitWriter(highWaterMark: configuration.writerHighWaterMark, watchdog: watchdog) { batches in
            try SQLiteStore.commit(
                batches, pool: pool, configuration: configuration, nameBook: nameBook, statements: statements, walBudget: walBudget)
        }
    }

    /// One group commit of `batches`, on the calling thread: what the writer thread runs for each.
    private static func commit(
        _ batches: [[IncomingEvent]], pool: DatabasePool, configuration: StoreConfiguration, nameBook: NameBook,
        statements: RollupStatements, walBudget: WALBudget
    ) throws -> [[Bool]] {
        let receivedAt = configuration.clock()
        let started = ContinuousClock.now
        let flags: [[Bool]]
        let names: NameFold
        do {
            (flags, names) = try pool.writeWithoutTransaction { db in
                try walBudget.apply(db)
                return try WriterTransaction.run(in: db) {
                    try EventWriter.commit(
                        batches, receivedAt: receivedAt, maturityWindow: configuration.maturityWindowMillis,
                        attributionWindows: configuration.attributionWindows, nameBook: nameBook, statements: statements,
                        in: db)
                }
            }
        } catch {
            // Ids this commit admitted were rolled back with it.
            nameBook.forgetAdmitted()
            if (error as? DatabaseError)?.resultCode == .SQLITE_FULL {
                // The log's committed pages go into the database file and the log is cut to nothing: on a
                // disk the log filled, that is the room the next commits need, and it comes back as soon as
                // anything else frees space. The budget is looked at again for the disk as it is now.
                _ = try? pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
                walBudget.lookAgain()
            }
            throw SQLiteUnavailable.surface(error)
        }
        nameBook.recordOverflow(batches, fold: names)
        // Once per commit, not per request: metric handles cost a lock each, on the one writer thread.
        StoreMetrics.recordCommit(duration: ContinuousClock.now - started, events: batches.reduce(0) { $0 + $1.count })
        StoreMetrics.recordIngest(batches: batches, duplicates: flags)
        return flags
    }

    /// Commits `batches` (device ids already keyed) as one group commit on the calling thread, as the writer
    /// thread would, and returns each batch's retry flags. For a benchmark of the commit alone: nothing else may
    /// write to the store meanwhile.
    package func commitOnThisThread(_ batches: [[IncomingEvent]]) throws -> [[Bool]] {
        try SQLiteStore.commit(
            batches, pool: pool, configuration: configuration, nameBook: nameBook, statements: rollupStatements,
            walBudget: walBudget)
    }

    /// Log pages a commit leaves before SQLite checkpoints (its default is 1,000: 4 MB).
    ///
    /// A checkpoint copies every page the log holds into the database file and syncs the file, on the writer
    /// thread, while the next commit's requests wait. A page written by many commits is copied and synced once
    /// per checkpoint, so a rarer checkpoint writes far fewer pages when commits keep landing on the same
    /// pages, as sessions do on their devices' index and audience pages (docs/PERFORMANCE.md). The log then
    /// grows to 64 MB (16,000 pages of 4 KiB) before it starts over, and each checkpoint is a longer pause. On a
    /// disk with less room the log is kept smaller (``WALBudget``).
    package static let checkpointPages = 16_000

    deinit {
        writer.close()
    }

    /// The writer connection's `PRAGMA synchronous` (2 = FULL).
    public func writerSynchronousLevel() async throws -> Int {
        try await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

}

extension SQLiteStore: StoreLifecycle {
    public var location: String { path }

    /// Commits everything acknowledged and stops taking writes; safe to call more than once.
    public func close() {
        writer.close()
    }

    /// The database file and its write-ahead log.
    public func databaseBytes() async -> Int64? {
        let sizes = ["", "-wal"].compactMap { suffix in
            (try? FileManager.default.attributesOfItem(atPath: path + suffix))?[.size] as? Int
        }
        return sizes.isEmpty ? nil : Int64(sizes.reduce(0, +))
    }

    /// The free space and size of the database's disk, and the write-ahead log's size.
    public func storageSpace() async -> StorageSpace? {
        guard let disk = WALBudget.disk(at: WALBudget.directory(of: path)) else { return nil }
        let log = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0
        return StorageSpace(diskFreeBytes: disk.free, diskSizeBytes: disk.size, logBytes: Int64(log))
    }

    /// Whether the database commits a write now (for `/healthz`): a real, durable one-row write.
    public func isWritable() async -> Bool {
        let now = configuration.clock()
        do {
            // Bounded: a write blocked in the kernel must not hold the health check with it.
            try await DetachedRace.run(timeout: commitDeadline, onDeadline: { CancellationError() }) {
                try await self.write { db in _ = try db.run(Queries.RecordHealthcheck(checkedAt: now)) }
            }
            return true
        } catch {
            return false
        }
    }
}

extension SQLiteStore: PushTallyStore {}

/// SQLite's process-wide settings, made once before the process opens its first database (lazily, on the first
/// store's init). Memory statistics off: nothing here reads them, and with them on every allocation SQLite makes
/// (a statement's journal, a trigger's frame, a record) takes one process-wide mutex; on the writer thread under
/// single receipts those locks were about 3 % of its samples.
private let sqliteSettings: Void = {
    _ = pushtally_sqlite_omit_memory_statistics()
}()
