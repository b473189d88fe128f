import Foundation
import Testing
import PushTallyCore
import PushTallyPostgres
import PushTallySQLite
import PushTallyStores
import PushTallyTestSupport

/// A store with a way to look at its tables, for tests that check what was stored, not only what reports say.
protocol TestStore: PushTallyStore {
    /// Every value as text; booleans as 1/0 on both stores.
    func textRows(_ sql: String) async throws -> [[String?]]
}

extension SQLiteStore: TestStore {}
extension PostgresStore: TestStore {}

extension TestStore {
    /// The first column of every row.
    func column(_ sql: String) async throws -> [String?] {
        try await textRows(sql).map { $0.first ?? nil }
    }

    /// The first column of every row, as integers.
    func integers(_ sql: String) async throws -> [Int64] {
        try await column(sql).map { Int64($0 ?? "") ?? .min }
    }
}

/// A fresh store of `kind`: a SQLite file in its own temporary folder, or a new PostgreSQL database
/// (see `TestPostgres`); removed afterwards.
@discardableResult
func withStore<T>(
    _ kind: StoreKind,
    clock: @escaping @Sendable () -> Int64 = StoreConfiguration.systemClock,
    highWaterMark: Int = 100_000,
    maturityWindow: Int64 = StoreConfiguration.defaultMaturityWindowMillis,
    maxActionIDs: Int = ActionIDs.defaultBound,
    _ body: (any TestStore) async throws -> T
) async throws -> T {
    let configuration = StoreConfiguration(
        writerHighWaterMark: highWaterMark, maturityWindowMillis: maturityWindow, maxActionIDs: maxActionIDs, clock: clock)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    @Sendable func open(_ location: StoreLocation) async throws -> any TestStore {
        try await openTestStore(location, configuration, in: directory)
    }
    switch kind {
    case .sqlite:
        let store = try await open(.sqlite(path: directory.appendingPathComponent("test.sqlite").path))
        defer { store.closeInBackground() }
        return try await body(store)
    case .postgres:
        return try await TestPostgres.withDatabase { url in
            let store = try await open(.postgres(url: url))
            defer { store.closeInBackground() }
            return try await body(store)
        }
    }
}

/// A fresh SQLite store, for the tests of what only SQLite has (its file, its pragmas, its migrations).
@discardableResult
func withSQLiteStore<T>(
    clock: @escaping @Sendable () -> Int64 = StoreConfiguration.systemClock, _ body: (SQLiteStore) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SQLiteStore(
        path: directory.appendingPathComponent("test.sqlite").path, configuration: StoreConfiguration(clock: clock))
    defer { store.closeInBackground() }
    return try await body(store)
}

/// A clock tests can move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var millis: Int64

    init(_ millis: Int64 = 1_795_000_000_000) {
        self.millis = millis
    }

    var now: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return millis
    }

    func advance(seconds: Int64) {
        lock.lock()
        millis += seconds * 1000
        lock.unlock()
    }

    var function: @Sendable () -> Int64 { { self.now } }
}

func receipt(_ pushID: String, device: String? = nil, receipt: String? = nil, ts: Int64? = nil) -> IncomingEvent {
    IncomingEvent(pushID: pushID, kind: .display, deviceID: device, receiptID: receipt, deviceTimeMillis: ts)
}

func action(_ pushID: String, _ name: String, device: String? = nil, receipt: String? = nil) -> IncomingEvent {
    IncomingEvent(pushID: pushID, kind: .action, action: name, deviceID: device, receiptID: receipt)
}

/// One fresh database of `kind` that `body` may open several stores on (collectors of one PostgreSQL
/// database, or a SQLite file reopened), each with its own bound on custom action ids.
@discardableResult
func withTestPostgresOrSQLite<T>(
    _ kind: StoreKind, _ body: (_ open: @escaping @Sendable (_ maxActionIDs: Int) async throws -> any TestStore) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    @Sendable func opener(_ location: StoreLocation) -> @Sendable (Int) async throws -> any TestStore {
        { maxActionIDs in try await openTestStore(location, StoreConfiguration(maxActionIDs: maxActionIDs), in: directory) }
    }
    switch kind {
    case .sqlite:
        return try await body(opener(.sqlite(path: directory.appendingPathComponent("test.sqlite").path)))
    case .postgres:
        return try await TestPostgres.withDatabase { url in try await body(opener(.postgres(url: url))) }
    }
}

/// A store of the tests' shape at `location`: keyed device ids (a secret in `directory` on PostgreSQL) and a
/// small connection pool.
private func openTestStore(_ location: StoreLocation, _ configuration: StoreConfiguration, in directory: URL) async throws -> any TestStore {
    var options = StoreOptions()
    options.configuration = configuration
    options.needsDeviceSecret = true
    options.deviceSecretPath = location.isPostgres ? directory.appendingPathComponent("secret").path : nil
    options.maximumConnections = 4
    return try #require(try await StoreFactory.open(location, options) as? any TestStore)
}
