/// A group-commit writer's watch on its own progress, with no clock, lock or thread of its own: the writer tells
/// it, under its lock and with the time, when its work starts, moves and ends; it answers when that work is
/// overdue (the watchdog's decision) and what `/healthz` says. Both writers (``GroupCommitWriter``,
/// ``AsyncGroupCommitWriter``) keep one, so a stall means the same on both engines.
package struct WriterHealthState: Sendable {
    /// The most a commit may take (``WriterWatchdog/commitTimeout``).
    package let commitTimeout: Duration
    /// The most a run of commits may take to begin its first (``WriterWatchdog/startTimeout``).
    package let startTimeout: Duration
    /// The work in hand: since when it has not moved, and whether it is a commit (else a run of commits that
    /// has not begun its first); `nil` while the writer has nothing in hand.
    private(set) var work: (since: ContinuousClock.Instant, inCommit: Bool)?
    /// The last stall, and whether a commit has succeeded since.
    private var lastStall: (at: ContinuousClock.Instant, reason: String)?
    private var committedSinceStall = true

    package init(commitTimeout: Duration, startTimeout: Duration) {
        self.commitTimeout = commitTimeout
        self.startTimeout = startTimeout
    }

    package init(_ watchdog: WriterWatchdog) {
        self.init(commitTimeout: watchdog.commitTimeout, startTimeout: watchdog.startTimeout)
    }

    /// How long a stall is reported with no commit tried after it: a minute, or two commit timeouts when that is
    /// longer. A commit that succeeds ends it sooner; an idle collector does not stay unhealthy for want of traffic.
    package var stallMemory: Duration { max(.seconds(60), commitTimeout * 2) }

    /// A run of commits started at `now` and has yet to begin its first (leasing its connection).
    package mutating func runStarted(at now: ContinuousClock.Instant) {
        work = (now, false)
    }

    /// A commit began at `now`. A run's first commit counts from the run's start: the wait for its connection
    /// and the commit share its requests' one deadline.
    package mutating func commitBegan(at now: ContinuousClock.Instant) {
        if let work, !work.inCommit {
            self.work = (work.since, true)
        } else {
            work = (now, true)
        }
    }

    /// The commit in hand ended at `now`; `committed` when it succeeded. A run that `goesOn` to look for more
    /// to commit is work in hand until it begins its next commit or ends.
    package mutating func commitEnded(committed: Bool, at now: ContinuousClock.Instant, runGoesOn: Bool = false) {
        work = runGoesOn ? (now, false) : nil
        if committed { committedSinceStall = true }
    }

    /// The run of commits ended with nothing left to commit.
    package mutating func runEnded() {
        work = nil
    }

    /// The limit the work in hand went past without moving by `now`, or `nil` when it is within it (or there is
    /// none).
    package func overdue(at now: ContinuousClock.Instant) -> Duration? {
        guard let work else { return nil }
        let limit = work.inCommit ? commitTimeout : startTimeout
        return now - work.since >= limit ? limit : nil
    }

    /// When the work in hand becomes overdue if it does not move: the watchdog's next look.
    package var due: ContinuousClock.Instant? {
        work.map { $0.since + ($0.inCommit ? commitTimeout : startTimeout) }
    }

    /// The watchdog gave the work in hand up at `now`, for `reason`. Work that `goesOn` (a commit its thread is
    /// still blocked in) stays in hand, reported as in flight, until it ends.
    package mutating func gaveUp(_ reason: String, at now: ContinuousClock.Instant, workGoesOn: Bool = false) {
        if !workGoesOn { work = nil }
        lastStall = (now, reason)
        committedSinceStall = false
    }

    /// What `/healthz` says at `now`: stalled while the work in hand has not moved for half the commit timeout
    /// (well before the watchdog gives it up), and after a stall until a commit succeeds or ``stallMemory``
    /// passes.
    package func health(at now: ContinuousClock.Instant) -> WriterHealth {
        if let work, now - work.since > commitTimeout / 2 {
            let what = work.inCommit ? "a commit has been in flight" : "no commit has started"
            return .stalled(reason: "\(what) for \((now - work.since).secondsText) s with work waiting")
        }
        if let lastStall, !committedSinceStall, now - lastStall.at < stallMemory {
            return .stalled(reason: "stalled \((now - lastStall.at).secondsText) s ago (\(lastStall.reason)); nothing committed since")
        }
        return .ok
    }
}
