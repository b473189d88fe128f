import Foundation
import Testing

@testable import PushTallyCore

/// A commit refused for the database's state (SQLite locked by another process past the deadline, a full disk)
/// is answered at its deadline, and so is everything that queued behind it meanwhile: they would meet the same
/// state, and waiting a second deadline for it is the wait the one deadline rules out. Any other failure
/// belongs to its own commit: the queue is committed next as usual.
@Suite(.timeLimit(.minutes(5))) struct GroupCommitWriterUnavailableTests {
    struct Locked: StorageUnavailableError {
        var reason: String { "the database is locked by another connection or process" }
        var retryAfterSeconds: Int { 5 }
        var description: String { reason }
    }

    struct Refused: Error {}

    /// Fails the commit that holds input 1 with `failure`, once the test has queued more behind it.
    final class FailingFlush: @unchecked Sendable {
        private let gate = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var calls: [[Int]] = []
        private let failure: any Error
        let entered: AsyncStream<Void>
        private let enteredContinuation: AsyncStream<Void>.Continuation

        init(failure: any Error) {
            self.failure = failure
            (entered, enteredContinuation) = AsyncStream.makeStream()
        }

        var committed: [[Int]] { lock.withLock { calls } }

        /// On the writer's own thread, which may block.
        func callAsFunction(_ inputs: [Int]) throws -> [String] {
            lock.withLock { calls.append(inputs) }
            if inputs.contains(1) {
                enteredContinuation.yield()
                gate.wait()
                throw failure
            }
            return inputs.map { "committed \($0)" }
        }

        func release() { gate.signal() }
    }

    typealias Answers = GroupCommitWriterWatchdogTests.Answers

    /// A writer whose commit of input 1 fails with `failure` once `queued` have been submitted behind it.
    static func failingWithSomeQueued(
        failure: any Error, queued: [Int]
    ) async -> (FailingFlush, GroupCommitWriter<Int, String>, Answers) {
        let flush = FailingFlush(failure: failure)
        let writer = GroupCommitWriter<Int, String>(highWaterMark: 100) { try flush($0) }
        let answers = Answers()
        writer.submit(1, events: 1) { answers.record(1, $0) }
        for await _ in flush.entered { break }
        for input in queued { writer.submit(input, events: 1) { answers.record(input, $0) } }
        flush.release()
        return (flush, writer, answers)
    }

    @Test func theQueueBehindACommitRefusedForTheDatabasesStateGetsTheSameAnswer() async throws {
        let (flush, writer, answers) = await Self.failingWithSomeQueued(failure: Locked(), queued: [2, 3])
        func submit(_ input: Int) { writer.submit(input, events: 1) { answers.record(input, $0) } }
        for input in 1...3 {
            let answer = await answers.first(input)
            #expect(throws: Locked.self, "input \(input)") { try answer.get() }
        }
        #expect(flush.committed == [[1]], "the queue was committed again instead of answered")

        // The writer goes on: the next submission is committed.
        submit(4)
        #expect(try await answers.first(4).get() == "committed 4")
        #expect(flush.committed == [[1], [4]])
        #expect((1...4).allSatisfy { answers.count($0) == 1 })
        await GroupCommitWriterWatchdogTests.close(writer)
    }

    @Test func anyOtherFailureIsItsCommitsAloneAndTheQueueIsCommitted() async throws {
        let (flush, writer, answers) = await Self.failingWithSomeQueued(failure: Refused(), queued: [2])
        let first = await answers.first(1)
        #expect(throws: Refused.self) { try first.get() }
        #expect(try await answers.first(2).get() == "committed 2")
        #expect(flush.committed == [[1], [2]])
        await GroupCommitWriterWatchdogTests.close(writer)
    }
}
