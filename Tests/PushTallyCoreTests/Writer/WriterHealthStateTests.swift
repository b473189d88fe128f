import PushTallyCore
import Testing

/// The writers' watch on their own progress, driven by hand with instants: no thread, no clock, no sleep.
@Suite struct WriterHealthStateTests {
    let start = ContinuousClock.now
    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64(seconds * 1000)) }

    /// A commit timeout of 10 s and a start timeout of 4 s.
    var state: WriterHealthState { WriterHealthState(commitTimeout: .seconds(10), startTimeout: .seconds(4)) }

    @Test func anIdleWriterIsHealthyAndNeverOverdue() {
        let idle = state
        #expect(idle.health(at: at(1_000)) == .ok)
        #expect(idle.overdue(at: at(1_000)) == nil)
        #expect(idle.due == nil)
    }

    @Test func aCommitIsReportedAtHalfItsTimeoutAndOverdueAtItsTimeout() {
        var writer = state
        writer.commitBegan(at: at(0))
        #expect(writer.health(at: at(5)) == .ok, "half the timeout is still moving")
        #expect(writer.health(at: at(5.5)) == .stalled(reason: "a commit has been in flight for 5.5 s with work waiting"))
        #expect(writer.overdue(at: at(9.9)) == nil)
        #expect(writer.due == at(10))
        #expect(writer.overdue(at: at(10)) == .seconds(10))
        writer.commitEnded(committed: true, at: at(10.5))
        #expect(writer.health(at: at(11)) == .ok && writer.overdue(at: at(30)) == nil)
    }

    @Test func aRunIsBoundedByTheStartTimeoutUntilItsFirstCommitWhichCountsFromTheRunsStart() {
        var writer = state
        writer.runStarted(at: at(0))
        #expect(writer.overdue(at: at(3.9)) == nil)
        #expect(writer.overdue(at: at(4)) == .seconds(4), "no commit began within the start timeout")
        #expect(writer.health(at: at(6)) == .stalled(reason: "no commit has started for 6.0 s with work waiting"))
        writer.commitBegan(at: at(3))
        #expect(writer.due == at(10), "the first commit shares the run's deadline")
        writer.commitEnded(committed: true, at: at(8), runGoesOn: true)
        #expect(writer.due == at(12), "between commits, the run must begin the next within the start timeout")
        writer.commitBegan(at: at(8.5))
        #expect(writer.due == at(18), "a later commit counts from the end of the one before")
        writer.commitEnded(committed: true, at: at(9), runGoesOn: true)
        writer.runEnded()
        #expect(writer.due == nil && writer.health(at: at(100)) == .ok)
    }

    @Test func aStallIsReportedUntilACommitSucceedsOrItsMemoryPasses() {
        var writer = state
        #expect(writer.stallMemory == .seconds(60), "a minute, when two commit timeouts are less")
        writer.commitBegan(at: at(0))
        writer.gaveUp("a commit of 3 requests did not finish within 10 s", at: at(10))
        #expect(writer.overdue(at: at(20)) == nil, "given up: nothing in hand to give up again")
        let reported = WriterHealth.stalled(
            reason: "stalled 5.0 s ago (a commit of 3 requests did not finish within 10 s); nothing committed since")
        #expect(writer.health(at: at(15)) == reported)
        writer.commitBegan(at: at(20))
        writer.commitEnded(committed: false, at: at(21))
        #expect(writer.health(at: at(25)) != .ok, "a failed commit does not end the stall")
        #expect(writer.health(at: at(69.9)) != .ok)
        #expect(writer.health(at: at(70)) == .ok, "forgotten a minute after, with no commit tried")
        writer.commitBegan(at: at(75))
        writer.gaveUp("a commit of 1 request did not finish within 10 s", at: at(85), workGoesOn: true)
        #expect(
            writer.health(at: at(86)) == .stalled(reason: "a commit has been in flight for 11.0 s with work waiting"),
            "a commit its thread is still blocked in")
        writer.commitEnded(committed: false, at: at(87))
        #expect(writer.health(at: at(88)) != .ok, "then the stall, until a commit succeeds")
        writer.commitBegan(at: at(90))
        writer.commitEnded(committed: true, at: at(91))
        #expect(writer.health(at: at(92)) == .ok, "a commit that succeeds ends it")
    }

    @Test func aLongCommitTimeoutIsRememberedForTwoOfItsTimeouts() {
        let writer = WriterHealthState(commitTimeout: .seconds(45), startTimeout: .seconds(5))
        #expect(writer.stallMemory == .seconds(90))
    }
}
