/// Stores ingested events (receipts, actions, sessions, conversions) durably: the ingest pipeline's only need of a store.
public protocol EventIngestor: Sendable {
    /// Stores events durably: `completion` runs once, after the commit holding them is durable, or with the
    /// error, on any thread, and should only hand the result off. The result says, per event, whether it was
    /// a recognised retry. Event-loop code calls this form directly; ``ingest(_:)`` awaits it.
    func ingest(_ events: [IncomingEvent], completion: @escaping @Sendable (Result<[Bool], any Error>) -> Void)
    /// Events waiting for the writer (a gauge for operators).
    var queuedEvents: Int { get }
    /// Whether the writers' commit chains are moving (`/healthz`); `.ok` for a writer that cannot stall.
    var writerHealth: WriterHealth { get }
}

extension EventIngestor {
    /// SQLite's writer is a thread blocked on its own fsync: it has no watchdog to report from.
    public var writerHealth: WriterHealth { .ok }
}

extension EventIngestor {
    /// Stores events durably and returns, per event, whether it was a recognised retry; returns only after
    /// the commit holding them (the completion form, awaited).
    /// - Throws: ``WriterError/overloaded`` when the writer's queue is past its high-water mark.
    public func ingest(_ events: [IncomingEvent]) async throws -> [Bool] {
        try await withCheckedThrowingContinuation { continuation in
            ingest(events) { continuation.resume(with: $0) }
        }
    }
}
