import Logging
import PostgresNIO
import PushTallyCore

extension PostgresConnection {
    /// Runs a statement to its end and returns its rows. postgres-nio reports a statement as started once the
    /// server has bound it and delivers an error raised while it executes through its rows, so a statement
    /// whose rows are not read could fail unseen, and the `COMMIT` after it would quietly roll back.
    @discardableResult
    func run(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try ensureOpen()
        var rows: [PostgresRow] = []
        for try await row in try await self.query(query, logger: logger) { rows.append(row) }
        return rows
    }

    /// Runs a statement outside `BEGIN` and returns its rows once the server has committed it.
    ///
    /// postgres-nio completes a statement at the server's CommandComplete, but the server commits a statement
    /// outside `BEGIN` only when it handles the Sync after it, flushing the commit's WAL then
    /// (`synchronous_commit = on`). A backend terminated in between (`pg_terminate_backend`, a crash, a power
    /// loss) sends the CommandComplete with its dying error and rolls the statement back, so a caller that
    /// acknowledged on the statement alone acknowledged what was never stored. The probe after it is sent only
    /// once the server said ReadyForQuery (postgres-nio starts a connection's next statement then), and that
    /// comes after the commit; a commit that failed closes the connection instead, failing the probe.
    @discardableResult
    func runCommitted(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        let rows = try await run(query, logger: logger)
        try await confirmCommitted(logger: logger)
        return rows
    }

    /// Returns once the statement run before it on this connection, outside `BEGIN`, has committed (see
    /// ``runCommitted(_:logger:)``); throws when its outcome is unknown. A commit that failed closes the
    /// connection, so the probe may be written after the close: the close then ends its wait
    /// (``ConnectionCloseWatch``).
    func confirmCommitted(logger: Logger) async throws {
        try ensureOpen()
        let probe: EventLoopFuture<PostgresQueryResult> = query("SELECT 1", logger: logger)
        _ = try await ConnectionCloseWatch.shared.answer(probe, on: self)
    }

    /// Commits, and throws unless the server says it committed: a transaction that failed answers `COMMIT`
    /// with `ROLLBACK`, not an error. With `chain`, the next transaction begins in the same round trip
    /// (`COMMIT AND CHAIN`).
    func commit(chain: Bool = false, logger: Logger) async throws {
        try ensureOpen()
        let result: PostgresQueryResult = try await self.query(chain ? "COMMIT AND CHAIN" : "COMMIT", logger: logger).get()
        guard result.metadata.command == "COMMIT" else {
            throw StoreError.unavailable(reason: "the transaction was rolled back (\(result.metadata.command))")
        }
    }

    /// Throws instead of letting a statement be sent on a connection that has closed. PostgresNIO (1.33) writes
    /// a statement into the connection's channel with no promise for the write: once the closed channel's
    /// handlers are gone the write finds none, and the statement's own promise is dropped, never completed,
    /// so its caller waits for good. A connection killed under a commit (`pg_terminate_backend`) is closed
    /// before its handlers go, so checking right before each statement leaves only the instant between the
    /// check and the write; the writer's watchdog bounds that one.
    func ensureOpen() throws {
        if isClosed { throw StoreError.unavailable(reason: "the connection to PostgreSQL closed") }
    }

    /// Rolls back the transaction `error` interrupted, unless the connection is gone. PostgresNIO (1.33) never
    /// completes a statement written to a connection whose channel has closed (the write finds no handler and
    /// its promise is dropped), so a `ROLLBACK` sent after the server terminated the backend waited for good,
    /// holding the writer's commit chain with it. A closed connection has nothing left to roll back.
    func rollBack(after error: any Error, logger: Logger) async {
        guard !isClosed, !PostgresFailure.isConnectionLost(error) else { return }
        // A session that cannot write stays so: closed, the pool makes a new one that may (``PostgresFailure/taintsConnection(_:)``).
        if PostgresFailure.taintsConnection(error) {
            // Awaited, so the next commit of a run that held it sees it closed and leases another.
            try? await self.close()
            return
        }
        _ = try? await self.query("ROLLBACK", logger: logger)
    }
}
