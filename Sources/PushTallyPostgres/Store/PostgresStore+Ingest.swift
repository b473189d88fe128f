import PushTallyCore

extension PostgresStore {
    /// Stores events durably: `completion` runs once, after the group commit holding them has committed
    /// (`synchronous_commit = on`), or with the error. `ingest(_:) async` awaits this form.
    public func ingest(_ events: [IncomingEvent], completion: @escaping @Sendable (Result<[Bool], any Error>) -> Void) {
        if events.isEmpty { return completion(.success([])) }
        if let deviceHasher {
            writer.submit(deviceHasher.keyingDeviceIDs(of: events), events: events.count, complete: completion)
        } else if events.contains(where: { $0.deviceID != nil }) {
            completion(.failure(StoreError.misconfigured("this store was opened without a device secret")))
        } else {
            writer.submit(events, events: events.count, complete: completion)
        }
    }
}
