import Foundation
import Logging
import Testing

@testable import PushTallyCore

/// The thread writer's watchdog: a commit blocked in the kernel (a disk that stopped completing writes) keeps
/// the writer's thread, but not its requests. Past the limit they, and whatever queued behind them, are
/// answered `stalled` (never acknowledged); until the commit ends every new submission is answered the same at
/// once; the blocked commit's own answers reach nobody; once it ends, the writer commits again.
@Suite(.timeLimit(.minutes(5))) struct GroupCommitWriterWatchdogTests {
    static let watchdog: WriterWatchdog = {
        var logger = Logger(label: "test.thread-watchdog")
        logger.logLevel = .critical
        return WriterWatchdog(commitTimeout: .milliseconds(300), startTimeout: .milliseconds(300), logger: logger)
    }()

    /// A flush that blocks its (dedicated) thread on the inputs it is told to until released.
    final class BlockingFlush: @unchecked Sendable {
        private let gate = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var calls: [[Int]] = []
        private let blocking: Set<Int>

        init(blockingOn blocking: Set<Int>) {
            self.blocking = blocking
        }

        var committed: [[Int]] { lock.withLock { calls } }

        func callAsFunction(_ inputs: [Int]) -> [String] {
            if !blocking.isDisjoint(with: inputs) { gate.wait() }
            lock.withLock { calls.append(inputs) }
            return inputs.map { "committed \($0)" }
        }

        func release() { gate.signal() }
    }

    /// Every completion a submission gets, so a second one would show.
    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [Int: [Result<String, any Error>]] = [:]
        private var waiters: [Int: CheckedContinuation<Result<String, any Error>, Never>] = [:]

        func record(_ input: Int, _ result: Result<String, any Error>) {
            let waiter = lock.withLock {
                all[input, default: []].append(result)
                return waiters.removeValue(forKey: input)
            }
            waiter?.resume(returning: result)
        }

        func first(_ input: Int) async -> Result<String, any Error> {
            await withCheckedContinuation { continuation in
                let known: Result<String, any Error>? = lock.withLock {
                    if let first = all[input]?.first { return first }
                    waiters[input] = continuation
                    return nil
                }
                if let known { continuation.resume(returning: known) }
            }
        }

        func count(_ input: Int) -> Int { lock.withLock { all[input]?.count ?? 0 } }
    }

    @Test func aBlockedCommitsRequestsAreAnsweredStalledAndTheWriterGoesOnOnceItEnds() async throws {
        let flush = BlockingFlush(blockingOn: [1])
        let writer = GroupCommitWriter<Int, String>(highWaterMark: 100, watchdog: Self.watchdog) { flush($0) }
        let answers = Answers()
        func submit(_ input: Int) { writer.submit(input, events: 1) { answers.record(input, $0) } }

        submit(1)
        // Queued behind the blocked commit: answered with it.
        submit(2)
        let answer1 = await answers.first(1)
        #expect(throws: WriterError.stalled) { try answer1.get() }
        let answer2 = await answers.first(2)
        #expect(throws: WriterError.stalled) { try answer2.get() }
        guard case .stalled(let reason) = writer.health else {
            Issue.record("health says \(writer.health) while the commit is blocked")
            return
        }
        #expect(reason.contains("in flight"), "\(reason)")
        // While it is still blocked, a new request is answered at once rather than queued behind it.
        submit(3)
        let answer3 = await answers.first(3)
        #expect(throws: WriterError.stalled) { try answer3.get() }

        flush.release()
        // A client's retries after its 503s: answered at once while the thread is still on its way out of the
        // blocked commit, committed once it is out.
        var retry = 4
        submit(retry)
        while case .failure(WriterError.stalled) = await answers.first(retry) {
            retry += 1
            try await Task.sleep(for: .milliseconds(10))
            submit(retry)
        }
        #expect(try await answers.first(retry).get() == "committed \(retry)")
        #expect(writer.health == .ok, "a commit went through since the stall")
        #expect(answers.count(1) == 1 && answers.count(2) == 1, "the blocked commit's own answers reach nobody")
        #expect(flush.committed.flatMap { $0 }.contains(1), "the blocked commit did end")
        #expect(!flush.committed.flatMap { $0 }.contains(3), "a request answered stalled is never committed")
        await Self.close(writer)
    }

    @Test func aCommitWithinTheLimitIsNeverCalledStalled() async throws {
        let flush = BlockingFlush(blockingOn: [])
        // A limit the suite's own load cannot reach: a starved writer thread is not a stalled commit.
        var patient = Self.watchdog
        patient.commitTimeout = .seconds(60)
        let writer = GroupCommitWriter<Int, String>(highWaterMark: 100, watchdog: patient) { flush($0) }
        let answers = Answers()
        for input in 0..<50 { writer.submit(input, events: 1) { answers.record(input, $0) } }
        for input in 0..<50 { #expect(try await answers.first(input).get() == "committed \(input)") }
        #expect(writer.health == .ok)
        await Self.close(writer)
    }

    /// close() blocks until its thread ends, so it runs on a thread of its own, not the cooperative pool.
    static func close(_ writer: GroupCommitWriter<Int, String>) async {
        await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
            Thread {
                writer.close()
                closed.resume()
            }.start()
        }
    }
}
