extension SQLiteStore {
    /// Stores events durably and returns, for each, whether it was a recognised retry.
    ///
    /// Returns only after the group commit holding these events is on disk (`synchronous=FULL`).
    /// - Throws: ``WriterError/overloaded`` when the writer's queue is past its high-water mark.
    public func ingest(_ events: [IncomingEvent]) async throws -> [Bool] {
        if events.isEmpty { return [] }
        var events = events
        for index in events.indices where events[index].deviceID != nil {
            events[index].deviceID = deviceHasher.hash(events[index].deviceID!)
        }
        let duplicates = try await writer.submit(events, events: events.count)
        StoreMetrics.recordIngest(events, duplicates: duplicates)
        return duplicates
    }
}
