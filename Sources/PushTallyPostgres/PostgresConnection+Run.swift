import Logging
import PostgresNIO
import PushTallyCore

extension PostgresConnection {
    /// Runs a statement to its end and returns its rows. postgres-nio reports a statement as started once the
    /// server has bound it and delivers an error raised while it executes through its rows, so a statement
    /// whose rows are not read could fail unseen, and the `COMMIT` after it would quietly roll back.
    @discardableResult
    func run(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in try await self.query(query, logger: logger) { rows.append(row) }
        return rows
    }

    /// Commits, and throws unless the server says it committed: a transaction that failed answers `COMMIT`
    /// with `ROLLBACK`, not an error.
    func commit(logger: Logger) async throws {
        let result: PostgresQueryResult = try await self.query("COMMIT", logger: logger).get()
        guard result.metadata.command == "COMMIT" else {
            throw StoreError.unavailable(reason: "the transaction was rolled back (\(result.metadata.command))")
        }
    }

    /// Rolls back the transaction `error` interrupted, unless the connection is gone. PostgresNIO (1.33) never
    /// completes a statement written to a connection whose channel has closed (the write finds no handler and
    /// its promise is dropped), so a `ROLLBACK` sent after the server terminated the backend waited for good,
    /// holding the writer's commit chain with it. A closed connection has nothing left to roll back.
    func rollBack(after error: any Error, logger: Logger) async {
        guard !isClosed, !PostgresFailure.isConnectionLost(error) else { return }
        _ = try? await self.query("ROLLBACK", logger: logger)
    }
}
