import PushTallyCore

extension PostgresStore {
    /// Stores events durably and returns, for each, whether it was a recognised retry; returns only after
    /// the group commit holding them has committed (`synchronous_commit = on`).
    /// - Throws: ``WriterError/overloaded`` when the writer's queue is past its high-water mark.
    public func ingest(_ events: [IncomingEvent]) async throws -> [Bool] {
        try await withCheckedThrowingContinuation { continuation in
            ingest(events) { continuation.resume(with: $0) }
        }
    }

    /// The completion form, for the ingest fast path on the event loop.
    public func ingest(_ events: [IncomingEvent], completion: @escaping @Sendable (Result<[Bool], any Error>) -> Void) {
        if events.isEmpty { return completion(.success([])) }
        var keyed = events
        if keyed.contains(where: { $0.deviceID != nil }) {
            guard let deviceHasher else {
                return completion(.failure(StoreError.misconfigured("this store was opened without a device secret")))
            }
            for index in keyed.indices { keyed[index].deviceID = keyed[index].deviceID.map(deviceHasher.hash) }
        }
        writer.submit(keyed, events: keyed.count, complete: completion)
    }
}
