import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import PushTallyCore

/// The store for deployments that outgrow one machine: any number of stateless collectors, one PostgreSQL.
///
/// It keeps the SQLite store's semantics exactly: each collector group-commits what it is sent and
/// acknowledges after the commit; retries are recognised by unique keys (`ON CONFLICT DO NOTHING`, counting
/// what was really inserted); rollups are additive upserts in the same transaction, never read-modify-write,
/// so collectors writing at once neither lose nor double-count.
public final class PostgresStore: Sendable {
    /// The database's URL, without its password.
    public let url: PostgresURL
    public let configuration: StoreConfiguration
    let client: PostgresClient
    let logger: Logger
    /// How long a request waits for a pooled connection before it is answered 503.
    let connectionTimeout: Duration
    /// How long a group commit (and `/healthz`'s write) may take before it is given up as unavailable.
    let commitTimeout: Duration
    /// This collector's first rollup shard (see `PostgresRollupWriter`): one of 16, drawn at start; writer
    /// `i` uses the next `i`-th. Two collectors drawing the same one is correct, only slower.
    let shard: Int64
    /// Keys device ids before they are stored; `nil` when opened without a secret (reports, exports).
    let deviceHasher: DeviceHasher?
    private let runTask: Task<Void, Never>
    /// Group-commit writers, each with a commit of its own in flight and its own rollup shard. One by default
    /// (`StoreOptions.postgresWriters`): with a commit of receipts one statement, a second writer only split the
    /// load into twice as many commits of half the size; tests racing writers ask for two.
    let writers: [AsyncGroupCommitWriter<[IncomingEvent], [Bool]>]
    /// Webhook subscriptions as the ingest path last read them.
    let subscriptions: SubscriptionCache
    /// What one-statement group commits predict from, and how many took each path.
    package let oneStatement = OneStatementState()
    /// The admitted names (custom action ids, platforms, versions) and pushes' apps the writers fold by
    /// (``BoundedField``).
    let nameBook: NameBook
    /// Creates the raw event partitions of the coming days as the clock reaches them.
    let partitions: PartitionKeeper
    /// Hands writers out in turn.
    private let nextWriter = NIOLockedValueBox(0)

    /// Connects, migrates (once, under an advisory lock, whatever the number of collectors starting) and
    /// starts the group-commit writers.
    ///
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database`.
    ///   - deviceSecretPath: the device-id secret every collector of the database must share. Created on the
    ///     database's first use; afterwards a missing or different secret refuses to start, since it would
    ///     stop retries arriving at another collector from being recognised. `nil` for commands that never
    ///     see a device id.
    ///   - maximumConnections: the pool size: ingest holds one connection per writer, everything else shares the rest.
    ///   - connectionTimeout: how long a request waits for a pooled connection before it fails as unavailable.
    ///   - commitTimeout: how long a group commit may take before its requests are answered 503 and its
    ///     connection closed (``WriterWatchdog``); also the bound of `/healthz`'s write.
    ///   - writers: group-commit writers (transactions in flight) of this collector.
    ///   - rollupShard: this collector's first rollup shard (0..<16); drawn at random when `nil`.
    ///   - migrates: whether to bring the schema up to date; off for a read replica (``openReadReplica(url:configuration:maximumConnections:logger:)``),
    ///     which cannot be written and follows its primary's schema.
    public convenience init(
        url: String, configuration: StoreConfiguration = StoreConfiguration(), deviceSecretPath: String?,
        maximumConnections: Int = 8, connectionTimeout: Duration = .seconds(5), commitTimeout: Duration = .seconds(5), writers: Int = 1,
        rollupShard: Int64? = nil, migrates: Bool = true, logger: Logger = Logger(label: "pushtally.postgres")
    ) async throws {
        try await self.init(
            url: url, configuration: configuration, deviceSecretPath: deviceSecretPath, maximumConnections: maximumConnections,
            connectionTimeout: connectionTimeout, commitTimeout: commitTimeout, writers: writers, rollupShard: rollupShard, migrationLimits: PostgresSchema.Limits(),
            migrates: migrates, logger: logger)
    }

    /// Opens with the schema migrated only as far as `migrationLimits` allow (tests of migrations).
    package init(
        url: String, configuration: StoreConfiguration = StoreConfiguration(), deviceSecretPath: String?,
        maximumConnections: Int = 8, connectionTimeout: Duration = .seconds(5), commitTimeout: Duration = .seconds(5), writers: Int = 1,
        rollupShard: Int64? = nil, migrationLimits: PostgresSchema.Limits, migrates: Bool = true, logger: Logger = Logger(label: "pushtally.postgres")
    ) async throws {
        let parsed = try PostgresURL(url)
        self.url = parsed
        self.configuration = configuration
        self.logger = logger
        self.connectionTimeout = connectionTimeout
        self.commitTimeout = commitTimeout
        self.shard = rollupShard ?? Int64.random(in: 0..<16)
        let client = PostgresClient(configuration: try parsed.clientConfiguration(maximumConnections: maximumConnections))
        self.client = client
        self.runTask = Task { await client.run() }
        do {
            let now = configuration.clock()
            var partitioned = false
            if migrates {
                partitioned = try await PostgresSchema.migrate(parsed, nowMillis: now, limits: migrationLimits, logger: logger)
            } else {
                do {
                    if try await !PostgresSchema.requireReadable(parsed, logger: logger) {
                        logger.warning(
                            "the read replica holds no PushTally data yet; reports are read from the primary until it does",
                            metadata: ["replica": "\(parsed)"])
                    }
                } catch let refusal as StoreError {
                    throw refusal
                } catch {
                    // A replica down at start may come back: reports read from the primary meanwhile.
                    logger.warning(
                        "the read replica does not answer; reports are read from the primary until it does",
                        metadata: ["replica": "\(parsed)", "error": "\(String(reflecting: error))"])
                }
            }
            self.partitions = PartitionKeeper(
                through: partitioned ? EventPartitions.daysAround(now).upperBound : nil, client: client, timeout: connectionTimeout,
                logger: logger)
            self.deviceHasher = try await deviceSecretPath.asyncMap {
                try await Self.loadDeviceSecret(at: $0, client: client, logger: logger)
            }
        } catch {
            runTask.cancel()
            throw PostgresFailure.surface(error)
        }
        let window = configuration.maturityWindowMillis
        let windows = configuration.attributionWindows
        let clock = configuration.clock
        let writerCount = max(1, min(writers, 16))
        let firstShard = shard
        let subscriptions = SubscriptionCache()
        self.subscriptions = subscriptions
        let memory = oneStatement
        let partitions = partitions
        let nameBook = NameBook(bounds: configuration.nameBounds, logger: logger)
        self.nameBook = nameBook
        // A run's first commit waits for its connection at most `connectionTimeout`; the watchdog backs that up.
        let watchdog = WriterWatchdog(commitTimeout: commitTimeout, startTimeout: connectionTimeout + .seconds(1), logger: logger)
        self.writers = (0..<writerCount).map { index in
            let shard = (firstShard + Int64(index)) % 16
            return AsyncGroupCommitWriter(
                highWaterMark: max(1, configuration.writerHighWaterMark / writerCount), watchdog: watchdog,
                session: { [client, connectionTimeout, logger] commits in
                    do {
                        try await Self.withConnection(client, timeout: connectionTimeout) { connection in
                            let lease = HeldLease(connection)
                            await HeldLease.$current.withValue(lease) { await commits() }
                            await lease.release(timeout: connectionTimeout, logger: logger)
                        }
                    } catch {
                        await HeldLease.$current.withValue(HeldLease(failure: error)) { await commits() }
                    }
                }
            ) { [client, logger, connectionTimeout] batches in
                let receivedAt = clock()
                partitions.keepAhead(of: receivedAt)
                return try await Self.commit(
                    batches, receivedAt: receivedAt, maturityWindow: window, attributionWindows: windows, shard: shard,
                    subscriptions: subscriptions, memory: memory, nameBook: nameBook, client: client, timeout: connectionTimeout,
                    logger: logger)
            }
        }
    }

    /// One group commit: every queued batch in one statement when its predictions hold, else in one
    /// transaction; per batch, whether each event was a retry.
    private static func commit(
        _ batches: [[IncomingEvent]], receivedAt: Int64, maturityWindow: Int64, attributionWindows: AttributionWindows,
        shard: Int64, subscriptions: SubscriptionCache, memory: OneStatementState, nameBook: NameBook,
        client: PostgresClient, timeout: Duration, logger: Logger
    ) async throws -> [[Bool]] {
        let started = ContinuousClock.now
        if let failure = HeldLease.current?.takeFailure() { throw PostgresFailure.surface(failure) }
        let events = batches.flatMap { batch in batch.map { StoredEvent($0, receivedAt: receivedAt) } }
        let names = try await nameFold(events, book: nameBook, client: client, timeout: timeout, logger: logger)
        // A commit of sessions or conversions (which always take the transaction path) opens the next commit's
        // transaction as it commits: the next is most likely one of them too.
        let (flags, inOneStatement, chained) = try await transaction(
            client, timeout: timeout, logger: logger, held: HeldLease.current, chain: events.contains { !$0.kind.namesPush },
            first: { connection in
                try await PostgresOneStatementCommit.store(
                    events, maturityWindow: maturityWindow, shard: shard, state: memory, subscriptions: subscriptions,
                    names: names, on: connection, logger: logger)
            },
            { connection in
                try await PostgresEventWriter.store(
                    events, maturityWindow: maturityWindow, attributionWindows: attributionWindows, shard: shard,
                    subscriptions: subscriptions, memory: memory, names: names, on: connection, logger: logger)
            })
        memory.committed(inOneStatement: inOneStatement, chained: chained)
        nameBook.recordOverflow(events, fold: names)
        StoreMetrics.recordCommit(duration: ContinuousClock.now - started, events: events.count)
        StoreMetrics.recordIngest(batches.joined(), duplicates: flags)
        var results: [[Bool]] = []
        var offset = 0
        for batch in batches {
            results.append(Array(flags[offset..<offset + batch.count]))
            offset += batch.count
        }
        return results
    }

    /// How a commit's names count (``BoundedField``), its new names admitted first: no database work at all
    /// unless the commit carries a name that takes a slot, and none beyond the book then unless a push or an
    /// app is new to it.
    private static func nameFold(
        _ events: [StoredEvent], book: NameBook, client: PostgresClient, timeout: Duration, logger: Logger
    ) async throws -> NameFold {
        let pairs = BoundedNames.pairs(events)
        guard !pairs.isEmpty else { return NameFold(overflows: false) }
        @Sendable func fold(_ connection: PostgresConnection) async throws -> NameFold {
            try await PostgresNames.fold(pairs, book: book, admit: true, inTransaction: false, on: connection, logger: logger)
        }
        do {
            if let held = HeldLease.current, held.usable != nil {
                // Its admissions commit on their own, so a transaction the last commit left open is ended first,
                // and only when the fold needs the database.
                return try await PostgresNames.fold(
                    pairs, book: book, admit: true, inTransaction: false,
                    connection: {
                        guard let connection = try await held.unchained(logger: logger) else {
                            throw StoreError.unavailable(reason: "the connection to PostgreSQL closed")
                        }
                        return connection
                    }, logger: logger)
            }
            return try await withConnection(client, timeout: timeout, fold)
        } catch {
            throw PostgresFailure.surface(error)
        }
    }

    deinit {
        writers.forEach { $0.close() }
        runTask.cancel()
    }

    public var queuedEvents: Int { writers.reduce(0) { $0 + $1.queuedEvents } }

    /// The first stalled writer's health, else `.ok`.
    public var writerHealth: WriterHealth {
        writers.lazy.map(\.health).first { $0 != .ok } ?? .ok
    }

    /// The writer for the next submission, in turn.
    var writer: AsyncGroupCommitWriter<[IncomingEvent], [Bool]> {
        writers[nextWriter.withLockedValue { next in
            next = (next + 1) % writers.count
            return next
        }]
    }
}

extension PostgresStore: PushTallyStore {
    public var location: String { url.description }

    /// Commits what was acknowledged, stops taking writes and closes the connections.
    public func close() {
        writers.forEach { $0.close() }
        runTask.cancel()
    }

    /// `pg_database_size` of the collectors' database: every collector reports the same figure. `nil` past the
    /// commit timeout, so a scrape of `/metrics` does not wait on a server that stopped answering.
    public func databaseBytes() async -> Int64? {
        try? await DetachedRace.run(timeout: commitTimeout, onDeadline: { CancellationError() }) {
            try await self.fetch(Queries.SelectDatabaseSize()).first
        }
    }

    /// Whether a durable write commits now (for `/healthz`), within the commit timeout: a server that stopped
    /// answering makes it false, not a wait without end.
    public func isWritable() async -> Bool {
        let now = configuration.clock()
        let late = StoreError.unavailable(reason: "the health check did not commit within \(commitTimeout)")
        do {
            try await DetachedRace.run(timeout: commitTimeout, onDeadline: { late }) {
                _ = try await self.write(Queries.RecordHealthcheck(checkedAt: now))
            }
            return true
        } catch {
            return false
        }
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async throws -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

