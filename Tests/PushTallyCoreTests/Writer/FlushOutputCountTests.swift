import Foundation
import InMemoryLogging
import Logging
import Testing

@testable import PushTallyCore

/// A flush that returns more or fewer outputs than it was given inputs fails every submission of its commit,
/// and says so in the log, on both writers: no request is left waiting for an answer.
@Suite(.timeLimit(.minutes(5))) struct FlushOutputCountTests {
    /// How a broken flush shapes its outputs.
    enum Miscount: CaseIterable, Sendable {
        case tooFew, tooMany

        func outputs(for inputs: [Int]) -> [String] { miscounted(inputs.map { "committed \($0)" }) }

        func miscounted(_ answered: [String]) -> [String] {
            switch self {
            case .tooFew: Array(answered.dropLast())
            case .tooMany: answered + ["one too many"]
            }
        }
    }

    /// Every error a submission ended with, and that each logged line is the mismatch's.
    private static func expectMismatch(_ outcomes: [Result<String, any Error>], logged lines: InMemoryLogHandler, submitted: Int) {
        #expect(outcomes.count == submitted, "every submission answered")
        for outcome in outcomes {
            guard case .failure(let error) = outcome, case .outputCountMismatch? = error as? WriterError else {
                Issue.record("a submission of a miscounted commit was answered \(outcome)")
                continue
            }
        }
        #expect(!lines.entries.isEmpty, "the mismatch is logged")
        for line in lines.entries {
            #expect(line.level == .error)
            #expect("\(line.message)".contains("different number of outputs"))
            #expect(line.metadata["inputs"] != nil && line.metadata["outputs"] != nil)
        }
    }

    @Test(arguments: Miscount.allCases)
    func theThreadWritersMiscountedCommitFailsEachOfItsSubmissions(_ miscount: Miscount) async {
        let lines = InMemoryLogHandler()
        let writer = GroupCommitWriter<Int, String>(highWaterMark: 100, logger: Logger(label: "test.writer") { _ in lines }) { miscount.outputs(for: $0) }
        let outcomes = await withTaskGroup(of: Result<String, any Error>.self) { group in
            for input in 0..<5 {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        writer.submit(input, events: 1) { continuation.resume(returning: $0) }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        Self.expectMismatch(outcomes, logged: lines, submitted: 5)
        // close() blocks until its thread ends, so it runs on a thread of its own, not the cooperative pool.
        await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
            Thread {
                writer.close()
                closed.resume()
            }.start()
        }
    }

    @Test(arguments: Miscount.allCases)
    func theAsyncWritersMiscountedCommitFailsEachOfItsSubmissions(_ miscount: Miscount) async throws {
        let lines = InMemoryLogHandler()
        let held = AsyncGroupCommitWriterTests.HeldFlush()
        let writer = AsyncGroupCommitWriter<Int, String>(highWaterMark: 100, logger: Logger(label: "test.writer") { _ in lines }) { inputs in
            miscount.miscounted(try await held(inputs))
        }
        // The first commit is held so the next four queue behind it and go together into one commit.
        let first = Submitted(0, to: writer)
        await held.firstCommitStarted()
        let queued = (1..<5).map { Submitted($0, to: writer) }
        #expect(writer.queuedEvents == 4)
        held.releaseFirstCommit()
        var outcomes: [Result<String, any Error>] = []
        for submitted in [first] + queued {
            do { outcomes.append(.success(try await submitted.output())) } catch { outcomes.append(.failure(error)) }
        }
        #expect(held.commits.count == 2)
        #expect(held.commits.last?.sorted() == [1, 2, 3, 4])
        Self.expectMismatch(outcomes, logged: lines, submitted: 5)
        #expect(lines.entries.count == 2, "one line a commit")
    }

    @Test func aFlushThatReturnsOneOutputPerInputIsAnsweredInOrder() {
        let lines = InMemoryLogHandler()
        var answered: [Int: String] = [:]
        FlushAnswers.deliver(["a", "b", "c"], toCount: 3, logger: Logger(label: "test.writer") { _ in lines }) { index, outcome in
            answered[index] = try? outcome.get()
        }
        #expect(answered == [0: "a", 1: "b", 2: "c"])
        #expect(lines.entries.isEmpty)
    }
}
