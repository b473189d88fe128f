import ArgumentParser

/// `serve --database-writers`: how many group commits a PostgreSQL collector keeps in flight at once.
///
/// One writer is the default: a commit of receipts is one statement, and a second writer splits the same load
/// into twice as many commits of half the size, more work for both processes on a machine they share. Where
/// the commit chain waits rather than works (PostgreSQL on a machine of its own, round trips over a network,
/// sessions whose commit is a transaction of several statements), more writers keep more commits in flight.
struct WriterOptions: ParsableArguments {
    @Option(
        help: """
            PostgreSQL group commits in flight at once, each on a connection of its own and in a rollup shard \
            of its own (env PUSHTALLY_DATABASE_WRITERS; default 1; from 1 to 16, below --database-connections).
            """)
    var databaseWriters: Int?

    /// The writers for `database`: one on SQLite (a file has one writer); on PostgreSQL from 1 to 16, and fewer
    /// than the connections, since reports and maintenance need one beside the writers' own.
    func count(for database: DatabaseOptions) throws -> Int {
        let writers = try databaseWriters ?? environment("PUSHTALLY_DATABASE_WRITERS").map { value in
            guard let count = Int(value) else { throw ValidationError("PUSHTALLY_DATABASE_WRITERS must be a number, not \(value)") }
            return count
        } ?? 1
        guard (1...16).contains(writers) else { throw ValidationError("--database-writers must be from 1 to 16, not \(writers)") }
        guard writers > 1 else { return writers }
        guard database.isPostgres else {
            throw ValidationError("--database-writers applies to PostgreSQL: a SQLite file has one writer")
        }
        let connections = try database.connectionCount()
        guard writers < connections else {
            throw ValidationError("--database-writers (\(writers)) must be below --database-connections (\(connections))")
        }
        return writers
    }
}
