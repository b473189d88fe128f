import Foundation

/// A durable queue of events: one small JSON file per event in `outbox/`, written to `tmp/` and renamed
/// in (atomic), named by time so that sorting the names gives the oldest first.
struct Outbox {
    let root: URL
    var events: URL { root.appendingPathComponent("outbox", isDirectory: true) }
    var temporary: URL { root.appendingPathComponent("tmp", isDirectory: true) }
    var statePath: String { root.appendingPathComponent("state.json").path }
    /// Held while sending, so two processes flushing one directory never send the same event twice.
    var flushLockPath: String { root.appendingPathComponent("flush.lock").path }
    /// Held briefly around reading and writing `state.json` and trimming the queue.
    var stateLockPath: String { root.appendingPathComponent("state.lock").path }

    init(root: URL) throws {
        self.root = root
        for directory in [root, events, temporary] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
    }

    /// Adds an event durably; returns its file name.
    @discardableResult
    func append(_ event: OutboxEvent, now: Date) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let millis = Int64(now.timeIntervalSince1970 * 1000)
        let name = String(format: "%016lld", millis) + "-" + UUID().uuidString + ".json"
        let staging = temporary.appendingPathComponent(name)
        try encoder.encode(event).write(to: staging, options: [.atomic])
        try FileManager.default.moveItem(at: staging, to: events.appendingPathComponent(name))
        return name
    }

    /// Queued file names, oldest first.
    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: events.path)) ?? [])
            .filter { $0.hasSuffix(".json") }
            .sorted()
    }

    func read(_ name: String) -> OutboxEvent? {
        guard let data = FileManager.default.contents(atPath: events.appendingPathComponent(name).path) else { return nil }
        return try? JSONDecoder().decode(OutboxEvent.self, from: data)
    }

    func remove(_ name: String) {
        try? FileManager.default.removeItem(at: events.appendingPathComponent(name))
    }

    /// When an event was queued, from its name.
    static func queuedAt(_ name: String) -> Date? {
        guard let millis = Double(name.prefix(16)) else { return nil }
        return Date(timeIntervalSince1970: millis / 1000)
    }

    func loadState() -> ClientState {
        guard let data = FileManager.default.contents(atPath: statePath) else { return ClientState() }
        return (try? JSONDecoder().decode(ClientState.self, from: data)) ?? ClientState()
    }

    func saveState(_ state: ClientState) {
        try? JSONEncoder().encode(state).write(to: URL(fileURLWithPath: statePath), options: [.atomic])
    }

    /// Runs `body` on the shared state under the state lock, saving what it changed.
    func updateState<T>(_ body: (inout ClientState) -> T) async -> T? {
        guard let lock = await FileLock.acquire(path: stateLockPath, until: Date().addingTimeInterval(5)) else { return nil }
        defer { lock.release() }
        var state = loadState()
        let result = body(&state)
        saveState(state)
        return result
    }
}
