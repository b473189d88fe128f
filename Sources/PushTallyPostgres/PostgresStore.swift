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
    /// This collector's first rollup shard (see `PostgresRollupWriter`): one of 16, drawn at start; writer
    /// `i` uses the next `i`-th. Two collectors drawing the same one is correct, only slower.
    let shard: Int64
    /// Keys device ids before they are stored; `nil` when opened without a secret (reports, exports).
    let deviceHasher: DeviceHasher?
    private let runTask: Task<Void, Never>
    /// Group-commit writers, each with a transaction of its own in flight and its own rollup shard: a
    /// transaction is a chain of round trips, and one writer alone left the box waiting on them.
    let writers: [AsyncGroupCommitWriter<[IncomingEvent], [Bool]>]
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
    ///   - writers: group-commit writers (transactions in flight) of this collector.
    ///   - rollupShard: this collector's first rollup shard (0..<16); drawn at random when `nil`.
    public init(
        url: String, configuration: StoreConfiguration = StoreConfiguration(), deviceSecretPath: String?,
        maximumConnections: Int = 8, connectionTimeout: Duration = .seconds(5), writers: Int = 2, rollupShard: Int64? = nil,
        logger: Logger = Logger(label: "pushtally.postgres")
    ) async throws {
        let parsed = try PostgresURL(url)
        self.url = parsed
        self.configuration = configuration
        self.logger = logger
        self.connectionTimeout = connectionTimeout
        self.shard = rollupShard ?? Int64.random(in: 0..<16)
        let client = PostgresClient(configuration: try parsed.clientConfiguration(maximumConnections: maximumConnections))
        self.client = client
        self.runTask = Task { await client.run() }
        do {
            try await PostgresSchema.migrate(parsed, logger: logger)
            self.deviceHasher = try await deviceSecretPath.asyncMap {
                try await Self.loadDeviceSecret(at: $0, client: client, logger: logger)
            }
        } catch {
            runTask.cancel()
            throw PostgresFailure.surface(error)
        }
        let window = configuration.maturityWindowMillis
        let clock = configuration.clock
        let writerCount = max(1, min(writers, 16))
        let firstShard = shard
        self.writers = (0..<writerCount).map { index in
            let shard = (firstShard + Int64(index)) % 16
            return AsyncGroupCommitWriter(highWaterMark: max(1, configuration.writerHighWaterMark / writerCount)) {
                [client, logger, connectionTimeout] batches in
                try await Self.commit(
                    batches, receivedAt: clock(), maturityWindow: window, shard: shard, client: client,
                    timeout: connectionTimeout, logger: logger)
            }
        }
    }

    /// One group commit: every queued batch in one transaction; per batch, whether each event was a retry.
    private static func commit(
        _ batches: [[IncomingEvent]], receivedAt: Int64, maturityWindow: Int64, shard: Int64, client: PostgresClient,
        timeout: Duration, logger: Logger
    ) async throws -> [[Bool]] {
        let started = ContinuousClock.now
        let events = batches.flatMap { batch in batch.map { StoredEvent($0, receivedAt: receivedAt) } }
        let flags = try await transaction(client, timeout: timeout, logger: logger) { connection in
            try await PostgresEventWriter.store(events, maturityWindow: maturityWindow, shard: shard, on: connection, logger: logger)
        }
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

    deinit {
        writers.forEach { $0.close() }
        runTask.cancel()
    }

    /// Commits what was acknowledged, stops taking writes and closes the connections.
    public func close() {
        writers.forEach { $0.close() }
        runTask.cancel()
    }

    public var location: String { url.description }

    public var queuedEvents: Int { writers.reduce(0) { $0 + $1.queuedEvents } }

    /// The writer for the next submission, in turn.
    var writer: AsyncGroupCommitWriter<[IncomingEvent], [Bool]> {
        writers[nextWriter.withLockedValue { next in
            next = (next + 1) % writers.count
            return next
        }]
    }

    /// Runs `body` in a transaction on a pooled connection, running it again (up to five times) when
    /// PostgreSQL aborted it as a deadlock or serialization failure, which collectors writing the same rows
    /// can meet; nothing of an aborted attempt was committed.
    static func transaction<Result: Sendable>(
        _ client: PostgresClient, timeout: Duration, logger: Logger,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        var attempt = 1
        while true {
            do {
                return try await withConnection(client, timeout: timeout) { connection in
                    try await connection.run("BEGIN", logger: logger)
                    do {
                        let result = try await body(connection)
                        try await connection.commit(logger: logger)
                        return result
                    } catch {
                        _ = try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                }
            } catch where PostgresFailure.isRetryable(error) && attempt < 5 {
                logger.debug("transaction retried", metadata: ["attempt": "\(attempt)", "error": "\(error)"])
                attempt += 1
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            } catch {
                throw PostgresFailure.surface(error)
            }
        }
    }

    func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await Self.transaction(client, timeout: connectionTimeout, logger: logger, body)
    }

    /// Runs one statement outside an explicit transaction and returns its rows, with the same error mapping
    /// and the same bound on waiting for a connection.
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let logger = logger
        do {
            return try await Self.withConnection(client, timeout: connectionTimeout) { connection in
                var rows: [PostgresRow] = []
                for row in try await connection.run(query, logger: logger) { rows.append(row) }
                return rows
            }
        } catch {
            throw PostgresFailure.surface(error)
        }
    }

    /// Runs `body`'s reads in one read-only snapshot (`REPEATABLE READ`), like a SQLite read transaction.
    func readSnapshot<Result: Sendable>(_ body: @escaping @Sendable (SnapshotReader) async throws -> Result) async throws -> Result {
        let logger = logger
        do {
            return try await Self.withConnection(client, timeout: connectionTimeout) { connection in
                try await connection.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
                do {
                    let result = try await body(SnapshotReader(connection: connection, logger: logger))
                    try await connection.run("COMMIT", logger: logger)
                    return result
                } catch {
                    _ = try? await connection.run("ROLLBACK", logger: logger)
                    throw error
                }
            }
        } catch {
            throw PostgresFailure.surface(error)
        }
    }

    /// Leases a pooled connection for `body`. When none comes within `timeout` (the server is down, the
    /// database gone, every connection busy) it fails with ``StoreError/unavailable(reason:)`` (503 +
    /// Retry-After) instead of waiting out the pool's reconnection attempts, which left clients hanging.
    static func withConnection<Result: Sendable>(
        _ client: PostgresClient, timeout: Duration, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        // Whether the lease or its deadline came first, decided once for both racing tasks.
        let outcome = NIOLockedValueBox<LeaseOutcome?>(nil)
        @Sendable func settle(_ mine: LeaseOutcome) -> Bool {
            outcome.withLockedValue { settled in
                if settled == nil { settled = mine }
                return settled == mine
            }
        }
        let late = StoreError.unavailable(reason: "no connection to PostgreSQL within \(timeout)")
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    // A connection that comes after the deadline is not used: the caller was told it failed.
                    guard settle(.leased) else { throw late }
                    return try await body(connection)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                if settle(.timedOut) { throw late }
                return nil
            }
            while let result = try await group.next() {
                if let result {
                    group.cancelAll()
                    return result
                }
            }
            throw CancellationError()
        }
    }

    /// Whether a durable write commits now (for `/healthz`).
    public func isWritable() async -> Bool {
        let now = configuration.clock()
        do {
            try await query(
                """
                INSERT INTO healthcheck (id, checked_at) VALUES (1, \(now))
                ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at
                """)
            return true
        } catch {
            return false
        }
    }

    private static let secretCheckInput = "pushtally-device-secret-check"

    /// Loads (or on the database's first use creates) the device secret and checks it against the one the
    /// database was first used with, by a keyed hash of a constant (the secret itself never enters the database).
    private static func loadDeviceSecret(at path: String, client: PostgresClient, logger: Logger) async throws -> DeviceHasher {
        var recorded: String?
        for try await value in try await client.query(
            "SELECT value FROM meta WHERE key = 'device_secret_check'", logger: logger
        ).decode(String.self) {
            recorded = value
        }
        if recorded != nil, !FileManager.default.fileExists(atPath: path) {
            throw StoreError.misconfigured(
                "no device secret at \(path), but this database was first used with one: copy that file from "
                    + "the first collector (every collector of a database needs the same secret)")
        }
        let hasher = try DeviceHasher.loadOrCreate(at: path)
        let check = hasher.hash(secretCheckInput)
        try await client.query(
            "INSERT INTO meta (key, value) VALUES ('device_secret_check', \(check)) ON CONFLICT (key) DO NOTHING",
            logger: logger)
        for try await value in try await client.query(
            "SELECT value FROM meta WHERE key = 'device_secret_check'", logger: logger
        ).decode(String.self) where value != check {
            throw StoreError.misconfigured(
                "the device secret at \(path) is not the one this database was first used with: copy the file "
                    + "from the first collector (every collector of a database needs the same secret)")
        }
        return hasher
    }
}

extension PostgresStore: PushTallyStore {}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async throws -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

/// Reads within one snapshot (see `PostgresStore.readSnapshot`).
struct SnapshotReader: Sendable {
    let connection: PostgresConnection
    let logger: Logger

    func callAsFunction(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await connection.run(query, logger: logger)
    }
}

/// Which came first for a connection lease: the connection or its deadline.
private enum LeaseOutcome: Sendable {
    case leased, timedOut
}


extension Array where Element == PostgresRow {
    /// Every row decoded as `columns`, as `PostgresRowSequence.decode` does for a stream.
    func decode<each Column: PostgresDecodable>(_ columns: (repeat each Column).Type) throws -> [(repeat each Column)] {
        try map { try $0.decode(columns) }
    }
}
