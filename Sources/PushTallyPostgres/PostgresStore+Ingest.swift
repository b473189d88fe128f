import PushTallyCore

extension PostgresStore {
    /// Stores events durably: `completion` runs once, after the group commit holding them has committed
    /// (`synchronous_commit = on`), or with the error. `ingest(_:) async` awaits this form.
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
