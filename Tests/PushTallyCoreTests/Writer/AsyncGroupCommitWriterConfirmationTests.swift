import Foundation
import Logging
import Testing

@testable import PushTallyCore

/// A commit confirmed after its flush (PostgreSQL's statement outside `BEGIN`, durable only at the Sync after
/// it): its requests are answered once it is confirmed, never before; the next commit goes ahead meanwhile and
/// its first statement confirms it; with nothing queued behind it, a probe does; a failed confirmation is an
/// error for its requests only; a confirmation that never comes is given up by the watchdog.
@Suite(.timeLimit(.minutes(5))) struct AsyncGroupCommitWriterConfirmationTests {
    /// A store whose every commit awaits confirmation: each flush confirms the one before it as it starts (what
    /// the answer to its first statement does), may be held before it returns, and leaves its own unconfirmed.
    final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var unconfirmed: CommitConfirmation?
        private var flushed: CommitConfirmation?
        private var held: Set<Int>
        private var commits: [[Int]] = []
        private var probes = 0
        private let probeFails: Bool
        let flushHeld = AsyncStream<Int>.makeStream()
        let releaseFlush = AsyncStream<Void>.makeStream()
        let probeStarted = AsyncStream<Void>.makeStream()
        let releaseProbe = AsyncStream<Void>.makeStream()
        let probeHangs: Bool
        /// What a hanging probe waits on; released when the test ends.
        let hang = AsyncGroupCommitWriterWatchdogTests.Hang()

        init(holding held: Set<Int> = [], probeFails: Bool = false, probeHangs: Bool = false) {
            self.held = held
            self.probeFails = probeFails
            self.probeHangs = probeHangs
        }

        var committed: [[Int]] { lock.withLock { commits } }
        var probeCount: Int { lock.withLock { probes } }

        func flush(_ inputs: [Int]) async throws -> [String] {
            let previous = lock.withLock {
                commits.append(inputs)
                defer { unconfirmed = nil }
                return unconfirmed
            }
            previous?.settle(.success(()))
            if let hold = lock.withLock({ held.first(where: inputs.contains) }) {
                flushHeld.continuation.yield(hold)
                var release = releaseFlush.stream.makeAsyncIterator()
                _ = await release.next()
            }
            let confirmation = CommitConfirmation { [self] in
                lock.withLock { probes += 1 }
                probeStarted.continuation.yield()
                if probeHangs {
                    await hang.wait()
                    throw ProbeFailure()
                }
                var release = releaseProbe.stream.makeAsyncIterator()
                _ = await release.next()
                if probeFails { throw ProbeFailure() }
            }
            lock.withLock { (unconfirmed, flushed) = (confirmation, confirmation) }
            return inputs.map { "committed \($0)" }
        }

        func takeConfirmation() -> CommitConfirmation? {
            lock.withLock {
                defer { flushed = nil }
                return flushed
            }
        }

        func writer(watchdog: WriterWatchdog? = nil) -> AsyncGroupCommitWriter<Int, String> {
            AsyncGroupCommitWriter(highWaterMark: 100, watchdog: watchdog, pendingConfirmation: { self.takeConfirmation() }) {
                try await self.flush($0)
            }
        }

        func awaitFlushHeld() async -> Int? {
            var iterator = flushHeld.stream.makeAsyncIterator()
            return await iterator.next()
        }

        func awaitProbe() async {
            var iterator = probeStarted.stream.makeAsyncIterator()
            _ = await iterator.next()
        }
    }

    struct ProbeFailure: Error, Equatable {}

    /// A completion's outcome, once it came.
    final class Answer: @unchecked Sendable {
        private let lock = NSLock()
        private var outcome: Result<String, any Error>?
        private let arrived = AsyncStream<Void>.makeStream()

        var hasArrived: Bool { lock.withLock { outcome != nil } }

        func complete(_ result: Result<String, any Error>) {
            lock.withLock { outcome = result }
            arrived.continuation.yield()
        }

        func value() async throws -> String {
            if let outcome = lock.withLock({ outcome }) { return try outcome.get() }
            var iterator = arrived.stream.makeAsyncIterator()
            _ = await iterator.next()
            return try lock.withLock { outcome! }.get()
        }
    }

    private func submit(_ input: Int, to writer: AsyncGroupCommitWriter<Int, String>) -> Answer {
        let answer = Answer()
        writer.submit(input, events: 1) { answer.complete($0) }
        return answer
    }

    @Test func aCommitWithNothingBehindItIsAnsweredOnlyOnceItsProbeConfirmsIt() async throws {
        let store = Store()
        let writer = store.writer()
        let answer = submit(0, to: writer)
        await store.awaitProbe()
        #expect(!answer.hasArrived, "answered before the commit was confirmed")
        store.releaseProbe.continuation.yield()
        #expect(try await answer.value() == "committed 0")
        #expect(store.probeCount == 1)
    }

    @Test func theNextCommitConfirmsTheOneBeforeItWithoutAProbe() async throws {
        let store = Store(holding: [0, 1])
        let writer = store.writer()
        let first = submit(0, to: writer)
        #expect(await store.awaitFlushHeld() == 0)
        let queued = [submit(1, to: writer), submit(2, to: writer)]
        store.releaseFlush.continuation.yield()
        // The next commit is in flight, held: the first is answered meanwhile, confirmed by its start.
        #expect(await store.awaitFlushHeld() == 1)
        #expect(try await first.value() == "committed 0")
        let answeredEarly = queued.contains { $0.hasArrived }
        #expect(!answeredEarly, "answered before the commit was confirmed")
        store.releaseFlush.continuation.yield()
        await store.awaitProbe()
        let answeredBeforeProbe = queued.contains { $0.hasArrived }
        #expect(!answeredBeforeProbe, "answered before the probe confirmed the commit")
        store.releaseProbe.continuation.yield()
        #expect(try await queued[0].value() == "committed 1")
        #expect(try await queued[1].value() == "committed 2")
        #expect(store.committed.map { $0.sorted() } == [[0], [1, 2]])
        #expect(store.probeCount == 1, "only the last commit needed a probe")
    }

    @Test func aFailedConfirmationFailsItsOwnRequestsAndTheWriterGoesOn() async throws {
        let store = Store(probeFails: true)
        let writer = store.writer()
        let doomed = submit(0, to: writer)
        await store.awaitProbe()
        store.releaseProbe.continuation.yield()
        await #expect(throws: ProbeFailure.self) { try await doomed.value() }
        let next = submit(1, to: writer)
        await store.awaitProbe()
        store.releaseProbe.continuation.yield()
        await #expect(throws: ProbeFailure.self) { try await next.value() }
        #expect(store.committed == [[0], [1]], "each commit ran; each was answered by its own confirmation")
    }

    @Test func aProbeSentAheadIsAwaitedNotRepeated() async throws {
        let sent = AsyncGroupCommitWriterWatchdogTests.Hang()
        let ownProbes = Counter()
        let confirmation = CommitConfirmation { ownProbes.increment() }
        confirmation.settle(byProbeSent: { await sent.wait() })
        let settled = Task { await confirmation.settleByProbe() }
        #expect(!confirmation.isSettled)
        sent.release()
        await settled.value
        #expect(confirmation.isSettled)
        #expect(ownProbes.value == 0, "a second probe was sent")
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func increment() { lock.withLock { count += 1 } }
    }

    @Test func aConfirmationThatNeverComesIsGivenUpByTheWatchdog() async throws {
        var logger = Logger(label: "test.watchdog")
        logger.logLevel = .critical
        let watchdog = WriterWatchdog(commitTimeout: .milliseconds(300), startTimeout: .milliseconds(300), logger: logger)
        let store = Store(probeHangs: true)
        defer { store.hang.release() }
        let writer = store.writer(watchdog: watchdog)
        let hung = submit(0, to: writer)
        await #expect(throws: WriterError.stalled) { try await hung.value() }
        guard case .stalled(let reason) = writer.health else {
            Issue.record("health says \(writer.health) right after a stall")
            return
        }
        #expect(reason.contains("a commit of 1 requests did not finish"), "\(reason)")
    }
}
