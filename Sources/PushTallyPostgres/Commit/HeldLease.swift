import Logging
import PostgresNIO
import PushTallyCore

/// The pooled connection a writer's run of back-to-back group commits holds (see
/// `AsyncGroupCommitWriter.Session`): leased once for the run, not once per commit, since a lease and its
/// return (the pool parks the connection and arms its idle and keep-alive timers) cost the collector more
/// than building and sending the commit's statement.
///
/// A commit of sessions or conversions may leave the next one's transaction open (`COMMIT AND CHAIN`, see
/// ``chain()``), saving that commit its `BEGIN` round trip; whatever runs on the connection next takes that
/// transaction or ends it first, and the run ends it before the connection goes back to the pool
/// (``release(timeout:logger:)``), so no other user of the pool ever finds it in a transaction.
///
/// Only the writer's committing task reads it, one commit after another, so it needs no lock.
final class HeldLease: @unchecked Sendable {
    /// The run's lease, as the commits of that run (and nothing else) see it.
    @TaskLocal static var current: HeldLease?

    private let connection: PostgresConnection?
    private var failure: (any Error)?
    /// Whether the connection is in a transaction the last commit opened for the next (``chain()``).
    private var chained = false

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

    /// Notes that the commit just made opened the next one's transaction (`COMMIT AND CHAIN`).
    func chain() {
        chained = true
    }

    /// Whether a transaction the last commit opened is open, handing it to the caller: it runs in it, or ends it.
    func takeChained() -> Bool {
        defer { chained = false }
        return chained
    }

    /// The held connection outside any transaction, for statements that commit on their own: an open chained
    /// transaction (nothing was run in it yet) is rolled back first.
    func unchained(logger: Logger) async throws -> PostgresConnection? {
        guard let connection = usable else { return nil }
        if takeChained() {
            try connection.ensureOpen()
            _ = try await connection.run("ROLLBACK", logger: logger)
        }
        return connection
    }

    /// Ends the run's open chained transaction, if any, before the connection returns to the pool; a
    /// connection that does not answer within `timeout` is closed instead, and the pool replaces it.
    func release(timeout: Duration, logger: Logger) async {
        guard takeChained(), let connection = usable else { return }
        do {
            _ = try await DetachedRace.run(timeout: timeout, onDeadline: { CancellationError() }) {
                try connection.ensureOpen()
                return try await connection.run("ROLLBACK", logger: logger).count
            }
        } catch {
            try? await connection.close()
        }
    }

    /// The lease's failure, once.
    func takeFailure() -> (any Error)? {
        defer { failure = nil }
        return failure
    }
}
