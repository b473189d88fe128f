import PushTallyCore

/// Closes a store whichever way `body` ends. A `defer` could only call the blocking `close()`, which joins the
/// store's writers on the calling thread, a thread of Swift's cooperative pool; `shutdown()` joins them on a
/// thread of its own.
func closing<T>(_ store: any StoreLifecycle, _ body: () async throws -> T) async throws -> T {
    try await closing(body) { await store.shutdown() }
}

/// Closes the database, when that is where the commands went, whichever way `body` ends.
func closing<T>(_ source: SourceOptions.Source, _ body: () async throws -> T) async throws -> T {
    try await closing(body) { await source.shutdown() }
}

/// Closes the read replica, if one was opened, whichever way `body` ends.
func closing<T>(replica: (any ReadReplica)?, _ body: () async throws -> T) async throws -> T {
    guard let replica else { return try await body() }
    return try await closing(replica, body)
}

private func closing<T>(_ body: () async throws -> T, then shutdown: () async -> Void) async throws -> T {
    let result: T
    do {
        result = try await body()
    } catch {
        await shutdown()
        throw error
    }
    await shutdown()
    return result
}
