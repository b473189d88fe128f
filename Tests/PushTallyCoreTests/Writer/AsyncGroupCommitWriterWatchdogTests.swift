import Foundation
import Logging
import Testing

@testable import PushTallyCore

/// The writer's watchdog: a commit that never ends, or a run that never starts one, is given up within its
/// limit; its requests are answered `stalled` (never acknowledged), and the writer goes on with new work.
@Suite(.timeLimit(.minutes(5))) struct AsyncGroupCommitWriterWatchdogTests {
    static let watchdog: WriterWatchdog = {
        // Stalls are what these tests make: their log lines would only be noise.
        var logger = Logger(label: "test.watchdog")
        logger.logLevel = .critical
        return WriterWatchdog(commitTimeout: .milliseconds(300), startTimeout: .milliseconds(300), logger: logger)
    }()

    /// Something that hangs until the test ends, as a statement whose reply a client library lost would for
    /// good; not cancellation-aware on purpose, since the watchdog must not depend on the commit ending.
    final class Hang: @unchecked Sendable {
        private let lock = NSLock()
        private var parked: [CheckedContinuation<Void, Never>] = []
        private var released = false

        func wait() async {
            await withCheckedContinuation { continuation in
                let now = lock.withLock {
                    if !released { parked.append(continuation) }
                    return released
                }
                if now { continuation.resume() }
            }
        }

        /// Ends every wait: the runs given up end late, and what they return must reach nobody.
        func release() {
            let waiting = lock.withLock {
                released = true
                defer { parked = [] }
                return parked
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    /// A flush that hangs on the inputs it is told to.
    final class Flush: @unchecked Sendable {
        private let lock = NSLock()
        private var hanging: Set<Int>
        private var calls: [[Int]] = []
        let hang = Hang()

        init(hangingOn hanging: Set<Int>) {
            self.hanging = hanging
        }

        var committed: [[Int]] { lock.withLock { calls } }

        func callAsFunction(_ inputs: [Int]) async throws -> [String] {
            let hangs = lock.withLock { !hanging.isDisjoint(with: inputs) }
            if hangs { await hang.wait() }
            lock.withLock { calls.append(inputs) }
            return inputs.map { "committed \($0)" }
        }
    }

    @Test func aCommitThatNeverEndsIsAnsweredStalledAndTheWriterGoesOn() async throws {
        let flush = Flush(hangingOn: [1])
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100, watchdog: Self.watchdog) { try await flush($0) }
        let started = ContinuousClock.now
        let hung = Submitted(1, to: writer)
        await #expect(throws: WriterError.stalled) { try await hung.output() }
        let waited = ContinuousClock.now - started
        // Not before the commit timeout. How soon after is the crowded test pool's business: a hang would trip
        // the suite's time limit.
        #expect(waited >= .milliseconds(300), "answered after \(waited)")
        guard case .stalled(let reason) = writer.health else {
            Issue.record("health says \(writer.health) right after a stall")
            return
        }
        #expect(reason.contains("did not finish"), "\(reason)")
        #expect(try await Submitted(2, to: writer).output() == "committed 2", "a new run commits what comes next")
        #expect(writer.health == .ok, "a commit since the stall clears it")
        #expect(flush.committed == [[2]])
        flush.hang.release()
    }

    @Test func jobsQueuedBehindAStalledCommitAreAnsweredWithIt() async throws {
        let flush = Flush(hangingOn: [1])
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100, watchdog: Self.watchdog) { try await flush($0) }
        let hung = Submitted(1, to: writer)
        let queued = Submitted(2, to: writer)
        await #expect(throws: WriterError.stalled) { try await hung.output() }
        await #expect(throws: WriterError.stalled) { try await queued.output() }
        #expect(writer.queuedEvents == 0)
        flush.hang.release()
    }

    @Test func aRunThatNeverStartsACommitIsGivenUp() async throws {
        let hang = Hang()
        defer { hang.release() }
        let writer = AsyncGroupCommitWriter<Int, String>(
            highWaterMark: 100, watchdog: Self.watchdog, session: { _ in await hang.wait() }
        ) { inputs in inputs.map { "committed \($0)" } }
        await #expect(throws: WriterError.stalled) { try await Submitted(1, to: writer).output() }
        guard case .stalled(let reason) = writer.health else {
            Issue.record("health says \(writer.health)")
            return
        }
        #expect(reason.contains("no commit started"), "\(reason)")
    }

    @Test func closeReturnsWhileACommitHangs() async throws {
        let flush = Flush(hangingOn: [1])
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100, watchdog: Self.watchdog) { try await flush($0) }
        let hung = Submitted(1, to: writer)
        // That it returns at all is the point (a hang would trip the suite's time limit), not how soon.
        try await closedOnAThread(writer)
        await #expect(throws: WriterError.stalled) { try await hung.output() }
        await #expect(throws: WriterError.closed) { try await Submitted(2, to: writer).output() }
        flush.hang.release()
    }

    @Test func aSlowCommitThatKeepsMovingIsNotGivenUp() async throws {
        // Each commit takes an eighth of the limit and the run half as long again as the limit: only a run that
        // is judged as a whole is given up. The margin per commit (seven eighths of two seconds) is far more
        // than a crowded machine delays a wake-up.
        var watchdog = Self.watchdog
        watchdog.commitTimeout = .seconds(2)
        watchdog.startTimeout = .seconds(2)
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100, watchdog: watchdog) { inputs in
            try await Task.sleep(for: .milliseconds(250))
            return inputs.map { "committed \($0)" }
        }
        for input in 0..<12 {
            #expect(try await Submitted(input, to: writer).output() == "committed \(input)")
        }
        #expect(writer.health == .ok)
    }

    /// `close()` blocks its thread, so it runs on one of its own.
    private func closedOnAThread(_ writer: AsyncGroupCommitWriter<Int, String>) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                writer.close()
                continuation.resume()
            }.start()
        }
    }
}
