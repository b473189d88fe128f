import Foundation
import Testing

@testable import PushTallyCore

/// The PostgreSQL store's writer: group commit without a thread of its own.
@Suite(.timeLimit(.minutes(1))) struct AsyncGroupCommitWriterTests {
    /// A flush whose first commit stays in flight until released, recording what each commit held.
    final class HeldFlush: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [[Int]] = []
        private let started = AsyncStream<Void>.makeStream()
        private let released = AsyncStream<Void>.makeStream()

        var commits: [[Int]] { lock.withLock { recorded } }

        func callAsFunction(_ inputs: [Int]) async throws -> [String] {
            let number = lock.withLock {
                recorded.append(inputs)
                return recorded.count
            }
            if number == 1 {
                started.continuation.yield()
                var release = released.stream.makeAsyncIterator()
                _ = await release.next()
            }
            if inputs.contains(-1) { throw TestFailure() }
            return inputs.map { "committed \($0)" }
        }

        /// Returns once the first commit is in flight.
        func firstCommitStarted() async {
            var iterator = started.stream.makeAsyncIterator()
            _ = await iterator.next()
        }

        func releaseFirstCommit() { released.continuation.yield() }
    }

    struct TestFailure: Error {}

    /// Submits each input in a task of its own and returns once all of them are queued behind the first commit.
    private func queue(_ inputs: [Int], on writer: AsyncGroupCommitWriter<Int, String>, in group: inout ThrowingTaskGroup<(Int, String), any Error>) async {
        for input in inputs {
            group.addTask { (input, try await writer.submit(input, events: 1)) }
        }
        while writer.queuedEvents < inputs.count { await Task.yield() }
    }

    @Test func submissionsMadeDuringACommitGoTogetherIntoTheNextOne() async throws {
        let flush = HeldFlush()
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100) { try await flush($0) }
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            group.addTask { (0, try await writer.submit(0, events: 1)) }
            await flush.firstCommitStarted()
            await queue([1, 2, 3, 4, 5], on: writer, in: &group)
            flush.releaseFirstCommit()
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(flush.commits.count == 2)
        #expect(flush.commits.first == [0])
        #expect(flush.commits.last?.sorted() == [1, 2, 3, 4, 5])
        #expect(results == Dictionary(uniqueKeysWithValues: (0...5).map { ($0, "committed \($0)") }))
    }

    @Test func aFailedCommitFailsItsOwnSubmissionsOnly() async throws {
        let flush = HeldFlush()
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100) { try await flush($0) }
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            group.addTask { (1, (try? await writer.submit(1, events: 1)) != nil) }
            await flush.firstCommitStarted()
            for input in [-1, 2] {
                group.addTask { (input, (try? await writer.submit(input, events: 1)) != nil) }
            }
            while writer.queuedEvents < 2 { await Task.yield() }
            flush.releaseFirstCommit()
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes == [1: true, -1: false, 2: false])
        #expect(try await writer.submit(3, events: 1) == "committed 3")
    }

    @Test func closeCommitsWhatWasQueuedThenRefuses() async throws {
        let flush = HeldFlush()
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100) { try await flush($0) }
        let closed = NSLock()
        nonisolated(unsafe) var hasClosed = false
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            group.addTask { (0, try await writer.submit(0, events: 1)) }
            await flush.firstCommitStarted()
            await queue([1, 2], on: writer, in: &group)
            // close() blocks until the queue is committed, so it runs on a thread of its own.
            let closing = Thread {
                writer.close()
                closed.withLock { hasClosed = true }
            }
            closing.start()
            try await Task.sleep(for: .milliseconds(200))
            #expect(closed.withLock { hasClosed } == false, "close() returned while a commit was in flight")
            flush.releaseFirstCommit()
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        while !closed.withLock({ hasClosed }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(results == [0: "committed 0", 1: "committed 1", 2: "committed 2"])
        await #expect(throws: WriterError.closed) { try await writer.submit(3, events: 1) }
        #expect(flush.commits.flatMap { $0 }.sorted() == [0, 1, 2])
    }

    @Test func refusesPastTheHighWaterMarkWhileACommitIsInFlight() async throws {
        let flush = HeldFlush()
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 2) { try await flush($0) }
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            group.addTask { (0, try await writer.submit(0, events: 1)) }
            await flush.firstCommitStarted()
            await queue([1, 2], on: writer, in: &group)
            await #expect(throws: WriterError.overloaded) { try await writer.submit(3, events: 1) }
            flush.releaseFirstCommit()
            try await group.waitForAll()
        }
    }
}

extension AsyncGroupCommitWriter {
    /// Queues `input` with a weight of `events` and waits for its commit.
    fileprivate func submit(_ input: Input, events: Int) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            submit(input, events: events) { continuation.resume(with: $0) }
        }
    }
}
