import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import PushTallyCore

extension PostgresStore {
    /// Runs `body` in a transaction on a pooled connection, running it again (up to five times) when
    /// PostgreSQL aborted it as a deadlock or serialization failure, which collectors writing the same rows
    /// can meet; nothing of an aborted attempt was committed.
    static func transaction<Result: Sendable>(
        _ client: PostgresClient, timeout: Duration, logger: Logger,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await transaction(client, timeout: timeout, logger: logger, first: { _ in nil }, body).result
    }

    /// The same, trying `first` on the leased connection before the transaction: a result from it is final
    /// (it committed on its own), `nil` sends the work to `body`. Also says which of the two gave the result, and
    /// whether `body` ran in a transaction the last commit left open.
    /// `held`, when given and usable, is used instead of a lease (a writer's run of commits holds one,
    /// ``HeldLease``). On it, a transaction the last commit left open is taken instead of a `BEGIN`, and `first`
    /// is not tried then (it needs a statement that commits on its own); with `chain`, the commit leaves the
    /// next one's transaction open.
    static func transaction<Result: Sendable>(
        _ client: PostgresClient, timeout: Duration, logger: Logger, held: HeldLease? = nil, chain: Bool = false,
        first: @escaping @Sendable (PostgresConnection) async throws -> Result?,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> (result: Result, first: Bool, chained: Bool) {
        @Sendable func run(_ connection: PostgresConnection, lease: HeldLease?) async throws -> (result: Result, first: Bool, chained: Bool) {
            let chained = lease?.takeChained() == true
            if !chained {
                let firstResult: Result?
                do {
                    firstResult = try await first(connection)
                } catch {
                    // A statement that commits on its own has no rollback to close a read-only session in.
                    if PostgresFailure.taintsConnection(error) { try? await connection.close() }
                    throw error
                }
                if let firstResult { return (firstResult, true, false) }
                try await connection.run("BEGIN", logger: logger)
            }
            do {
                let result = try await body(connection)
                // Only a held connection chains: a leased one goes back to the pool, which must find it idle.
                try await connection.commit(chain: chain && lease != nil, logger: logger)
                if chain { lease?.chain() }
                return (result, false, chained)
            } catch {
                await connection.rollBack(after: error, logger: logger)
                throw error
            }
        }
        var attempt = 1
        while true {
            do {
                if let held, let connection = held.usable { return try await run(connection, lease: held) }
                return try await withConnection(client, timeout: timeout) { try await run($0, lease: nil) }
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

    /// Runs one reading statement outside an explicit transaction and returns its rows, with the same error
    /// mapping and the same bound on waiting for a connection. A statement that writes goes through
    /// ``write(_:)``: this one returns before its commit.
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

    /// Runs one writing statement outside an explicit transaction and returns its rows once it has committed
    /// (``PostgresConnection/runCommitted(_:logger:)``): what a caller is told was stored, was.
    @discardableResult
    func write(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let logger = logger
        do {
            return try await Self.withConnection(client, timeout: connectionTimeout) { connection in
                try await connection.runCommitted(query, logger: logger)
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
                    await connection.rollBack(after: error, logger: logger)
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
    ///
    /// The lease runs detached (``DetachedRace``): a lease request the pool does not give up at once when
    /// cancelled must not hold the caller past its deadline. Cancelling the caller closes the connection
    /// `body` runs on: a statement in flight on a server that stopped answering would otherwise never end,
    /// and a connection with a statement in flight cannot go back to the pool. The close is PostgresNIO's
    /// channel close, which does not wait for the server.
    static func withConnection<Result: Sendable>(
        _ client: PostgresClient, timeout: Duration, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        // Whether the lease or its deadline came first, decided once for both sides.
        let outcome = NIOLockedValueBox<LeaseOutcome?>(nil)
        @Sendable func settle(_ mine: LeaseOutcome) -> Bool {
            outcome.withLockedValue { settled in
                if settled == nil { settled = mine }
                return settled == mine
            }
        }
        let late = StoreError.unavailable(reason: "no connection to PostgreSQL within \(timeout)")
        return try await DetachedRace.run(timeout: timeout, onDeadline: { settle(.timedOut) ? late : nil }) {
            // The pool can hand out a connection whose session the server ended since its last use (after an
            // error at a commit's end, or a terminated backend): such a lease is given back and another taken,
            // a few times, rather than failing a statement that never reached the server.
            for pause in Self.closedLeasePauses {
                do {
                    return try await leaseOnce(client, settle: settle, late: late, body)
                } catch is ClosedOnLease {
                    // The pool drops a closed connection once its close event is handled; until then it may
                    // hand the same one out again.
                    try await Task.sleep(for: pause)
                }
            }
            throw StoreError.unavailable(reason: "the connection to PostgreSQL closed")
        }
    }

    /// The pauses after each closed lease of one ``withConnection(_:timeout:_:)``: as many leases as pauses, within
    /// the call's deadline.
    static let closedLeasePauses: [Duration] = [.milliseconds(1), .milliseconds(10), .milliseconds(50), .milliseconds(200), .seconds(1)]

    /// A leased connection that was closed before anything was sent on it.
    private struct ClosedOnLease: Error {}

    private static func leaseOnce<Result: Sendable>(
        _ client: PostgresClient, settle: @escaping @Sendable (LeaseOutcome) -> Bool, late: StoreError,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await client.withConnection { connection in
            // A connection that comes after the deadline is not used: the caller was told it failed.
            guard settle(.leased) else { throw late }
            guard !connection.isClosed else { throw ClosedOnLease() }
            return try await withTaskCancellationHandler {
                do {
                    return try await body(connection)
                } catch {
                    // Not back to the pool in a state that fails every write (``PostgresFailure/taintsConnection(_:)``).
                    if PostgresFailure.taintsConnection(error) { try? await connection.close() }
                    throw error
                }
            } onCancel: {
                connection.close().whenComplete { _ in }
            }
        }
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
