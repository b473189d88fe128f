import PostgresNIO

/// The pooled connection a writer's run of back-to-back group commits holds (see
/// `AsyncGroupCommitWriter.Session`): leased once for the run, not once per commit, since a lease and its
/// return (the pool parks the connection and arms its idle and keep-alive timers) cost the collector more
/// than building and sending the commit's statement.
///
/// Only the writer's committing task reads it, one commit after another, so it needs no lock.
final class HeldLease: @unchecked Sendable {
    /// The run's lease, as the commits of that run (and nothing else) see it.
    @TaskLocal static var current: HeldLease?

    private let connection: PostgresConnection?
    private var failure: (any Error)?

    init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// A run that got no connection: its first commit fails with `failure` (after the wait for a connection
    /// that has already been paid), the others lease their own.
    init(failure: any Error) {
        self.connection = nil
        self.failure = failure
    }

    /// The held connection while it is open; a closed one (the server went away) is left for the pool to
    /// replace, and each commit then leases its own.
    var usable: PostgresConnection? {
        guard let connection, !connection.isClosed else { return nil }
        return connection
    }

    /// The lease's failure, once.
    func takeFailure() -> (any Error)? {
        defer { failure = nil }
        return failure
    }
}
