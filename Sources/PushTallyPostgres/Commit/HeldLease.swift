import Logging
import PostgresNIO
import PushTallyCore

/// The pooled connection a writer's run of back-to-back group commits holds (see
/// `AsyncGroupCommitWriter.Session`): leased once for the run, not once per commit, since a lease and its
/// return (the pool parks the connection and arms its idle and keep-alive timers) cost the collector more
/// than building and sending the commit's statement.
///
/// Only the writer's committing task reads it, one commit after another, so it needs no lock. It also carries the
/// confirmation of the run's last commit of one statement to the statement that follows it on the connection.
final class HeldLease: @unchecked Sendable {
    /// The run's lease, as the commits of that run (and nothing else) see it.
    @TaskLocal static var current: HeldLease?

    private let connection: PostgresConnection?
    private var failure: (any Error)?
    /// The commit the held connection ran last outside `BEGIN`, until the server answers a statement sent after
    /// it (which it does only after that commit).
    private var unconfirmed: CommitConfirmation?
    /// The same commit, until the writer takes it after its flush (``takeConfirmation()``).
    private var flushed: CommitConfirmation?

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

    /// Whether `connection` is the one held.
    func holds(_ connection: PostgresConnection) -> Bool {
        self.connection === connection
    }

    /// The statement just run on the held connection outside `BEGIN` commits at the Sync after it: instead of a
    /// probe of its own, the next statement on the connection confirms it (``answered(on:)``), or the probe once
    /// the writer finds nothing to follow it (``CommitConfirmation/settleByProbe()``).
    func awaitConfirmation(logger: Logger) {
        guard let connection else { return }
        let confirmation = CommitConfirmation {
            do {
                try await connection.confirmCommitted(logger: logger)
            } catch {
                throw PostgresFailure.surface(error)
            }
        }
        (unconfirmed, flushed) = (confirmation, confirmation)
    }

    /// The server answered a statement on `connection`: the commit before it on the held connection committed.
    func answered(on connection: PostgresConnection) {
        guard let unconfirmed, self.connection === connection else { return }
        self.unconfirmed = nil
        unconfirmed.settle(.success(()))
    }

    /// Sends the probe for the commit awaiting confirmation now, ahead of the statements the caller is about
    /// to build: for a large commit, whose building takes longer than a round trip, the previous commit's
    /// requests are then answered a round trip after it ended instead of after that building. Written to the
    /// connection before this returns, so it goes ahead of everything the caller sends next.
    func confirmAhead(logger: Logger) {
        guard let unconfirmed, let connection, !connection.isClosed else { return }
        self.unconfirmed = nil
        let probe: EventLoopFuture<PostgresQueryResult> = connection.query("SELECT 1", logger: logger)
        unconfirmed.settle(byProbeSent: {
            do {
                _ = try await ConnectionCloseWatch.shared.answer(probe, on: connection)
            } catch {
                throw PostgresFailure.surface(error)
            }
        })
    }

    /// The confirmation of the commit the writer just flushed, once; `nil` when it was confirmed in the flush.
    func takeConfirmation() -> CommitConfirmation? {
        defer { flushed = nil }
        return flushed
    }

    /// The confirmation the writer will take for the commit in hand, when it has one.
    var pendingConfirmation: CommitConfirmation? { flushed }

    /// The lease's failure, once.
    func takeFailure() -> (any Error)? {
        defer { failure = nil }
        return failure
    }
}
