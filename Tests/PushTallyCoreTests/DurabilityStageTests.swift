import Foundation
import Testing

@testable import PushTallyCore

/// The SQLite store's writer with a durability stage: commits return before their log is synced, and
/// answers wait for the sync.
@Suite(.timeLimit(.minutes(1))) struct DurabilityStageTests {
    /// A sync that stays in progress until released, counting its calls; it fails when told to.
    final class HeldSync: @unchecked Sendable {
        private let lock = NSLock()
        private var calls = 0
        private var failing = false
        private let entered = AsyncStream<Void>.makeStream()
        // The sync runs on the stage's own thread, where blocking is what a real sync does.
        private let release = DispatchSemaphore(value: 0)
        private var holding = true

        var count: Int { lock.withLock { calls } }

        func fail() { lock.withLock { failing = true } }

        func callAsFunction() throws {
            let (hold, fails) = lock.withLock {
                calls += 1
                return (holding, failing)
            }
            entered.continuation.yield()
            if hold { release.wait() }
            if fails { throw SyncFailure() }
        }

        /// Returns once a sync has begun.
        func syncStarted() async {
            var iterator = entered.stream.makeAsyncIterator()
            _ = await iterator.next()
        }

        /// Lets the sync in progress return, and every later one return at once.
        func releaseAll() {
            lock.withLock { holding = false }
            release.signal()
        }
    }

    struct SyncFailure: Error {}

    /// What one submission was answered, once it was.
    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Int: Result<String, any Error>] = [:]
        private let answered = AsyncStream<Void>.makeStream()

        var count: Int { lock.withLock { results.count } }

        func record(_ input: Int) -> @Sendable (Result<String, any Error>) -> Void {
            { result in
                self.lock.withLock { self.results[input] = result }
                self.answered.continuation.yield()
            }
        }

        /// Waits until `count` submissions have been answered, and returns them.
        func all(_ count: Int) async -> [Int: Result<String, any Error>] {
            var iterator = answered.stream.makeAsyncIterator()
            while self.count < count { _ = await iterator.next() }
            return lock.withLock { results }
        }
    }

    private func writer(_ sync: HeldSync, commits: Commits) -> GroupCommitWriter<Int, String> {
        GroupCommitWriter(highWaterMark: 100, name: "durability-test", durability: { try sync() }) { inputs in
            commits.append(inputs)
            return inputs.map { "committed \($0)" }
        }
    }

    /// `close()` joins the writer's threads: on a thread of its own, not a cooperative one.
    private func close(_ writer: GroupCommitWriter<Int, String>) async {
        await withCheckedContinuation { continuation in
            Thread {
                writer.close()
                continuation.resume()
            }.start()
        }
    }

    final class Commits: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [[Int]] = []
        var all: [[Int]] { lock.withLock { recorded } }
        func append(_ inputs: [Int]) { lock.withLock { recorded.append(inputs) } }
    }

    @Test func answersWaitForASyncThatBeganAfterTheirCommit() async throws {
        let sync = HeldSync()
        let commits = Commits()
        let answers = Answers()
        let writer = writer(sync, commits: commits)
        writer.submit(1, events: 1, complete: answers.record(1))
        await sync.syncStarted()
        // The commit has returned (the sync only starts after it), but nobody has been answered.
        #expect(commits.all == [[1]])
        #expect(answers.count == 0)
        sync.releaseAll()
        let results = await answers.all(1)
        await close(writer)
        #expect(try results[1]?.get() == "committed 1")
    }

    @Test func commitsDuringASyncShareTheNextOne() async throws {
        let sync = HeldSync()
        let commits = Commits()
        let answers = Answers()
        let writer = writer(sync, commits: commits)
        writer.submit(1, events: 1, complete: answers.record(1))
        await sync.syncStarted()
        for input in 2...4 { writer.submit(input, events: 1, complete: answers.record(input)) }
        sync.releaseAll()
        let results = await answers.all(4)
        await close(writer)
        #expect(try (1...4).map { try results[$0]?.get() } == (1...4).map { "committed \($0)" })
        // Everything committed while the first sync ran was made durable by one more sync, not one each.
        #expect(sync.count <= 2)
        #expect(commits.all.joined().sorted() == [1, 2, 3, 4])
    }

    @Test func aFailedSyncFailsItsCommitsAndEveryAnswerAfter() async throws {
        let sync = HeldSync()
        sync.fail()
        let commits = Commits()
        let answers = Answers()
        let writer = writer(sync, commits: commits)
        writer.submit(1, events: 1, complete: answers.record(1))
        await sync.syncStarted()
        sync.releaseAll()
        _ = await answers.all(1)
        writer.submit(2, events: 1, complete: answers.record(2))
        let results = await answers.all(2)
        await close(writer)
        #expect(throws: SyncFailure.self) { try results[1]?.get() }
        // Committed, but never acknowledged: the log's state on disk is no longer known.
        #expect(throws: SyncFailure.self) { try results[2]?.get() }
        #expect(commits.all == [[1], [2]])
        #expect(sync.count == 1)
    }

    @Test func closingAnswersWhatWasCommitted() async throws {
        let sync = HeldSync()
        sync.releaseAll()
        let answers = Answers()
        let writer = writer(sync, commits: Commits())
        for input in 1...3 { writer.submit(input, events: 1, complete: answers.record(input)) }
        await close(writer)
        // close() returned: every submission has its answer already.
        #expect(answers.count == 3)
        let results = await answers.all(3)
        #expect(try (1...3).map { try results[$0]?.get() } == (1...3).map { "committed \($0)" })
        #expect(sync.count >= 1)
    }
}
