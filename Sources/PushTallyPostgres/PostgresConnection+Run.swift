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
}
