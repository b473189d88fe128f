import Foundation
import Testing

@testable import PushTallyCore

/// The threads PushTally starts carry their names where operators look for them (`top -H`, `perf`,
/// `/proc/PID/task/*/comm`), not the name of whichever thread created them.
@Suite(.timeLimit(.minutes(5))) struct WriterThreadNameTests {
    /// The calling thread's name as the kernel keeps it.
    static func kernelName() -> String {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .newlines)
    }

    /// Runs a blocking call on a thread of its own, not the cooperative pool.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// One commit's flush reports the thread it ran on.
    static func flushThreadName(of writer: GroupCommitWriter<Int, String>) async -> Result<String, any Error> {
        let outcome = await withCheckedContinuation { continuation in
            writer.submit(1, events: 1) { continuation.resume(returning: $0) }
        }
        await offPool { writer.close() }
        return outcome
    }

    @Test func theGroupCommitWriterRunsOnAThreadNamedIngestWriter() async throws {
        let writer = GroupCommitWriter<Int, String>(highWaterMark: 10) { inputs in inputs.map { _ in Self.kernelName() } }
        #expect(try await Self.flushThreadName(of: writer).get() == "ingest-writer")
    }

    @Test func aWriterGivenANameRunsOnAThreadOfThatName() async throws {
        let writer = GroupCommitWriter<Int, String>(highWaterMark: 10, name: "receipts-w2") { inputs in
            inputs.map { _ in Self.kernelName() }
        }
        #expect(try await Self.flushThreadName(of: writer).get() == "receipts-w2")
    }

    /// A store whose `close()` notes the thread it ran on.
    final class ClosingStore: StoreLifecycle, @unchecked Sendable {
        private let lock = NSLock()
        private var closedOn: [String] = []
        var location: String { "test" }
        func isWritable() async -> Bool { true }
        func databaseBytes() async -> Int64? { nil }
        func close() { lock.withLock { closedOn.append(WriterThreadNameTests.kernelName()) } }
        var threads: [String] { lock.withLock { closedOn } }
    }

    @Test func aStoreShutsDownOnAThreadNamedStoreClose() async {
        let store = ClosingStore()
        await store.shutdown()
        #expect(store.threads == ["store-close"])
    }
}
