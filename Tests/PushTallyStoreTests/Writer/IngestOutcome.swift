/// An ingest's outcome, awaited after it was submitted (`PushTallyStore.ingest(_:complete:)`): its flags, or
/// `nil` for an error. Lets a test submit ingests that queue behind one another before awaiting any.
final class IngestOutcome: @unchecked Sendable {
    private let stream = AsyncStream<[Bool]?>.makeStream()

    func set(_ result: Result<[Bool], any Error>) {
        stream.continuation.yield(try? result.get())
        stream.continuation.finish()
    }

    func value() async -> [Bool]? {
        for await value in stream.stream { return value }
        return nil
    }
}
