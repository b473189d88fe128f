import Foundation
import Testing

@testable import PushTallyCore

/// The writer's session: one resource (PostgreSQL: a pooled connection) held over a run of back-to-back
/// commits, and commits that still happen when the session could not take it.
@Suite(.timeLimit(.minutes(5))) struct AsyncGroupCommitWriterSessionTests {
    /// What a session lends the commits it wraps.
    @TaskLocal static var lent: Int?

    /// Counts sessions and records, per commit, its inputs and what it was lent.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var sessionCount = 0
        private var recorded: [(inputs: [Int], lent: Int?)] = []

        var sessions: Int { lock.withLock { sessionCount } }
        var commits: [(inputs: [Int], lent: Int?)] { lock.withLock { recorded } }

        func startSession() -> Int {
            lock.withLock {
                sessionCount += 1
                return sessionCount
            }
        }

        func record(_ inputs: [Int]) { lock.withLock { recorded.append((inputs, AsyncGroupCommitWriterSessionTests.lent)) } }
    }

    @Test func commitsQueuedDuringARunShareItsSession() async throws {
        let recorder = Recorder()
        let firstStarted = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        let writer = AsyncGroupCommitWriter<Int, String>(
            highWaterMark: 100,
            session: { commits in
                let number = recorder.startSession()
                await Self.$lent.withValue(number) { await commits() }
            }
        ) { inputs in
            recorder.record(inputs)
            if inputs == [0] {
                firstStarted.continuation.yield()
                var iterator = release.stream.makeAsyncIterator()
                _ = await iterator.next()
            }
            return inputs.map { "committed \($0)" }
        }
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            group.addTask { (0, try await writer.submitted(0)) }
            var started = firstStarted.stream.makeAsyncIterator()
            _ = await started.next()
            for input in [1, 2] {
                let submitted = Submitted(input, to: writer)
                group.addTask { (input, try await submitted.output()) }
            }
            #expect(writer.queuedEvents == 2)
            release.continuation.yield()
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(results == [0: "committed 0", 1: "committed 1", 2: "committed 2"])
        #expect(recorder.sessions == 1, "the second commit followed the first in the same run")
        #expect(recorder.commits.map(\.lent) == [1, 1])
        #expect(recorder.commits.last?.inputs.sorted() == [1, 2])
    }

    @Test func aSessionThatDoesNotRunItsCommitsLeavesThemToTheWriter() async throws {
        let recorder = Recorder()
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100, session: { _ in _ = recorder.startSession() }) { inputs in
            recorder.record(inputs)
            return inputs.map { "committed \($0)" }
        }
        #expect(try await writer.submitted(7) == "committed 7")
        #expect(recorder.sessions == 1)
        #expect(recorder.commits.map(\.inputs) == [[7]])
        #expect(recorder.commits.map(\.lent) == [nil], "committed outside the session")
    }
}

extension AsyncGroupCommitWriter {
    /// Queues `input` as one event and waits for its commit.
    fileprivate func submitted(_ input: Input) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            submit(input, events: 1) { continuation.resume(with: $0) }
        }
    }
}
