import Foundation
import Testing

@testable import PushTallyCore

/// The PostgreSQL store's writer: group commit without a thread of its own.
@Suite(.timeLimit(.minutes(5))) struct AsyncGroupCommitWriterTests {
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

    /// Queues each input behind the first commit before returning (submission itself is synchronous), and
    /// awaits each outcome in a task of the group.
    private func queue(_ inputs: [Int], on writer: AsyncGroupCommitWriter<Int, String>, in group: inout ThrowingTaskGroup<(Int, String), any Error>) {
        for input in inputs {
            let submitted = Submitted(input, to: writer)
            group.addTask { (input, try await submitted.output()) }
        }
        #expect(writer.queuedEvents == inputs.count)
    }

    @Test func submissionsMadeDuringACommitGoTogetherIntoTheNextOne() async throws {
        let flush = HeldFlush()
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100) { try await flush($0) }
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            group.addTask { (0, try await writer.submit(0, events: 1)) }
            await flush.firstCommitStarted()
            queue([1, 2, 3, 4, 5], on: writer, in: &group)
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
                let submitted = Submitted(input, to: writer)
                group.addTask { (input, (try? await submitted.output()) != nil) }
            }
            #expect(writer.queuedEvents == 2)
            flush.releaseFirstCommit()
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes == [1: true, -1: false, 2: false])
        #expect(try await writer.submit(3, events: 1) == "committed 3")
    }

    @Test func closeCommitsWhatWasQueuedThenRefuses() async throws {
        let flush = HeldFlush()
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100) { try await flush($0) }
        let closed = AsyncStream<Void>.makeStream()
        let returned = OnceClosed()
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            group.addTask { (0, try await writer.submit(0, events: 1)) }
            await flush.firstCommitStarted()
            queue([1, 2], on: writer, in: &group)
            // close() blocks until the queue is committed (blocking is its point), so it runs on a thread of its own.
            Thread {
                writer.close()
                returned.mark()
                closed.continuation.yield()
            }.start()
            // A bounded look for a wrong early return; the commit stays held meanwhile, so no timing decides it.
            try await Task.sleep(for: .milliseconds(200))
            #expect(!returned.isMarked, "close() returned while a commit was in flight")
            flush.releaseFirstCommit()
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        var closing = closed.stream.makeAsyncIterator()
        _ = await closing.next()
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
            queue([1, 2], on: writer, in: &group)
            await #expect(throws: WriterError.overloaded) { try await writer.submit(3, events: 1) }
            flush.releaseFirstCommit()
            try await group.waitForAll()
        }
    }
}

/// A submission queued by the time its initializer returns, whose outcome is awaited later: tests know what is
/// queued without polling the writer.
final class Submitted<Output: Sendable>: Sendable {
    private let outcome: AsyncStream<Result<Output, any Error>>

    init(_ input: Int, to writer: AsyncGroupCommitWriter<Int, Output>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Result<Output, any Error>.self)
        outcome = stream
        writer.submit(input, events: 1) { result in
            continuation.yield(result)
            continuation.finish()
        }
    }

    /// The commit's outcome.
    func output() async throws -> Output {
        for await result in outcome { return try result.get() }
        throw CancellationError()
    }
}

/// A flag set once from another thread.
final class OnceClosed: @unchecked Sendable {
    // Guards `marked`.
    private let lock = NSLock()
    private var marked = false

    var isMarked: Bool { lock.withLock { marked } }
    func mark() { lock.withLock { marked = true } }
}

extension AsyncGroupCommitWriter {
    /// Queues `input` with a weight of `events` and waits for its commit.
    fileprivate func submit(_ input: Input, events: Int) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            submit(input, events: events) { continuation.resume(with: $0) }
        }
    }
}
