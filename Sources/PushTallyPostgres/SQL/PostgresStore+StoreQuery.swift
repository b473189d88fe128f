import Logging
import PostgresNIO
import PushTallyCore

extension PostgresQuery {
    /// `query` rendered for PostgreSQL, its values bound in order.
    init(_ query: some StoreQuery) {
        self.init(query.statement(.postgres))
    }
}

extension PostgresStore {
    /// The rows of a reading `query`, decoded by the query.
    func fetch<Query: RowQuery>(_ query: Query) async throws -> [Query.Row] {
        try await self.query(PostgresQuery(query)).map { try query.row(PostgresReportRow($0)) }
    }

    /// Runs a writing `query` outside `BEGIN` (acknowledged once committed, as ``write(_:)`` is) and
    /// returns its rows, decoded by the query.
    func fetchWritten<Query: RowQuery>(_ query: Query) async throws -> [Query.Row] {
        try await write(PostgresQuery(query)).map { try query.row(PostgresReportRow($0)) }
    }

    /// Runs a writing `query` outside `BEGIN`, acknowledged once committed, and returns how many rows it
    /// returned: for a statement ending with `RETURNING`, how many it changed.
    @discardableResult
    func write(_ query: some StoreQuery) async throws -> Int {
        try await write(PostgresQuery(query)).count
    }
}

extension PostgresConnection {
    /// The rows of `query`, run on this connection (inside the caller's transaction), decoded by the query.
    func fetch<Query: RowQuery>(_ query: Query, logger: Logger) async throws -> [Query.Row] {
        try await run(PostgresQuery(query), logger: logger).map { try query.row(PostgresReportRow($0)) }
    }

    /// Runs `query` on this connection (inside the caller's transaction) and returns how many rows it returned.
    @discardableResult
    func run(_ query: some StoreQuery, logger: Logger) async throws -> Int {
        try await run(PostgresQuery(query), logger: logger).count
    }
}
