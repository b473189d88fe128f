import Logging

/// How long an ``AsyncGroupCommitWriter``'s commit chain may go without moving while it has work, and who
/// hears of it when it does not.
///
/// A commit is awaited network I/O: a database that stops answering (frozen, a network path that drops
/// packets) or a client library that loses a reply never ends it. The watchdog bounds it: past the limit, the
/// commit's outcome is unknown, so its requests and everything queued behind it are answered
/// ``WriterError/stalled`` (503) and never acknowledged; the chain is cancelled (the store closes its
/// connection) and a new one starts for the next submission.
package struct WriterWatchdog: Sendable {
    /// The most a commit may take from its start to its end; a run's first commit counts from the run's start
    /// (``AsyncGroupCommitWriter/Session``: its connection's lease included), so a request's wait for a
    /// connection and for its commit share one deadline.
    package var commitTimeout: Duration
    /// The most a run of commits may take to start its first commit (``AsyncGroupCommitWriter/Session``:
    /// leasing a connection, which has a bound of its own; this one only backs it up).
    package var startTimeout: Duration
    /// Where a stall is reported (the line says why), once per stall.
    package var logger: Logger

    package init(commitTimeout: Duration, startTimeout: Duration, logger: Logger) {
        self.commitTimeout = commitTimeout
        self.startTimeout = startTimeout
        self.logger = logger
    }
}

/// What `/healthz` says of the writers beside the database's own check.
public enum WriterHealth: Sendable, Equatable {
    case ok
    /// The commit chain is not moving, or stalled recently and has not committed since; `reason` says which.
    case stalled(reason: String)
}
