extension SQLiteStore {
    /// Stores events durably and returns, for each, whether it was a recognised retry.
    ///
    /// Returns only after the group commit holding these events is on disk (`synchronous=FULL`).
    /// - Throws: ``WriterError/overloaded`` when the writer's queue is past its high-water mark.
    public func ingest(_ events: [IncomingEvent]) async throws -> [Bool] {
        try await withCheckedThrowingContinuation { continuation in
            ingest(events) { continuation.resume(with: $0) }
        }
    }

    /// The same as ``ingest(_:)``, for event-loop code that must not wait in a task: `completion` runs once,
    /// on the writer thread, after the commit (or with the error), and should only hand the result off.
    public func ingest(_ events: [IncomingEvent], completion: @escaping @Sendable (Result<[Bool], any Error>) -> Void) {
        if events.isEmpty { return completion(.success([])) }
        let hashed = events.map { event in
            var event = event
            event.deviceID = event.deviceID.map(deviceHasher.hash)
            return event
        }
        writer.submit(hashed, events: hashed.count, complete: completion)
    }
}
