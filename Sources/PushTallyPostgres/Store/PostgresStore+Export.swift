import PostgresNIO
import PushTallyCore

extension PostgresStore {
    /// This database's id, as exports name their source.
    public func databaseID() async throws -> String {
        try await fetch(Queries.SelectDatabaseID()).first ?? ""
    }

    /// Streams raw events received in [since, until) to `write`, oldest first; one statement, so one snapshot.
    public func exportEvents(
        sinceMillis: Int64?, untilMillis: Int64?, write: @escaping @Sendable (ExportedEvent) throws -> Void
    ) async throws -> Int {
        let logger = logger
        do {
            // Streamed on one connection, not collected: an export can be every raw event there is.
            return try await Self.withConnection(client, timeout: connectionTimeout) { connection in
                let source = try await connection.fetch(Queries.SelectDatabaseID(), logger: logger).first ?? ""
                let query = Queries.SelectExportedEvents(sinceMillis: sinceMillis ?? .min, untilMillis: untilMillis ?? .max)
                let rows = try await connection.query(PostgresQuery(query), logger: logger)
                return try await Self.write(rows, of: query) { event in
                    var event = event
                    event.identify(source: source)
                    try write(event)
                }
            }
        } catch {
            throw PostgresFailure.surface(error)
        }
    }

    private static func write(
        _ rows: PostgresRowSequence, of query: Queries.SelectExportedEvents, to write: (ExportedEvent) throws -> Void
    ) async throws -> Int {
        var count = 0
        for try await row in rows {
            try write(try query.row(PostgresReportRow(row)))
            count += 1
        }
        return count
    }

    /// Up to `limit` events after `cursor` in commit order (``EventCursor``): by storing transaction, then id,
    /// below the oldest transaction still running. On a standby as on its primary (both see the same ids).
    public func eventFeed(after cursor: EventCursor, limit: Int) async throws -> EventFeedPage {
        let source = try await databaseID()
        // One snapshot and one bound for the page's three tables: each reads every row stored below the bound, so
        // their first rows merge into the first rows of all three.
        let tables = try await readSnapshot { read in
            func fetch<Query: RowQuery>(_ query: Query) async throws -> [Query.Row] {
                try await read(PostgresQuery(query)).map { try query.row(PostgresReportRow($0)) }
            }
            let bound = try await fetch(Queries.SelectFeedBound()).first ?? "0"
            return [
                try await fetch(Queries.SelectFeedEvents(after: cursor, limit: limit, bound: bound)),
                try await fetch(Queries.SelectFeedSends(after: cursor, limit: limit, bound: bound)),
                try await fetch(Queries.SelectFeedFCMDeliveries(after: cursor, limit: limit, bound: bound)),
            ]
        }
        return EventFeedPage(tables: tables, after: cursor, limit: limit, source: source)
    }

    /// Adds exported events with their rollups, skipping those this database already took from `source`
    /// (or that came from itself), so importing the same file twice changes nothing. Returns how many were new.
    public func importEvents(_ events: [ExportedEvent], source: String) async throws -> Int {
        guard !events.isEmpty, try await databaseID() != source else { return 0 }
        let window = configuration.maturityWindowMillis
        let windows = configuration.attributionWindows
        let logger = logger
        let shard = shard
        let book = nameBook
        return try await transaction { connection in
            var fresh = Set<Int64>()
            let seqs = Array(Set(events.map(\.seq))).sorted()
            for seq in try await connection.fetch(Queries.InsertImportedSequences(source: source, seqs: seqs), logger: logger) {
                fresh.insert(seq)
            }
            let stored = events.compactMap { event in fresh.remove(event.seq).map { _ in StoredEvent(imported: event, source: source) } }
            // Stored like ingest, so the imported devices' sessions and conversions are attributed as well.
            let names = try await PostgresNames.fold(
                BoundedNames.pairs(stored), book: book, admit: true, inTransaction: true, on: connection, logger: logger)
            _ = try await PostgresEventWriter.store(
                stored, maturityWindow: window, attributionWindows: windows, shard: shard, names: names, on: connection,
                logger: logger)
            return stored.count
        }
    }
}
