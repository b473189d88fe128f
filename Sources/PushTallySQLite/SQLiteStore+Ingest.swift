import PushTallyCore

extension SQLiteStore: EventIngestor {
    /// Stores events durably: `completion` runs once, on the writer thread, after the group commit holding
    /// them is on disk (`synchronous=FULL`), or with the error, and should only hand the result off. Event-loop
    /// code calls this form directly; `ingest(_:) async` awaits it.
    public func ingest(_ events: [IncomingEvent], completion: @escaping @Sendable (Result<[Bool], any Error>) -> Void) {
        if events.isEmpty { return completion(.success([])) }
        writer.submit(deviceHasher.keyingDeviceIDs(of: events), events: events.count, complete: completion)
    }

    /// Events waiting for the writer (a gauge for operators).
    public var queuedEvents: Int { writer.queuedEvents }

    /// Whether the writer's commits move (a commit blocked in the kernel does not).
    public var writerHealth: WriterHealth { writer.health }
}
