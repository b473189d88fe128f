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

/// A fresh store of `kind` (``FreshStore``), seen as a ``TestStore``; closed and removed afterwards.
@discardableResult
func withStore<T>(
    _ kind: StoreKind,
    clock: @escaping @Sendable () -> Int64 = StoreConfiguration.systemClock,
    highWaterMark: Int = 100_000,
    maturityWindow: Int64 = StoreConfiguration.defaultMaturityWindowMillis,
    maxActionIDs: Int = ActionIDs.defaultBound,
    nameBounds: NameBounds? = nil,
    _ body: (any TestStore) async throws -> T
) async throws -> T {
    let configuration = StoreConfiguration(
        writerHighWaterMark: highWaterMark, maturityWindowMillis: maturityWindow,
        nameBounds: nameBounds ?? NameBounds(actions: maxActionIDs), clock: clock)
    return try await withFreshStore(kind, configuration) { store in try await body(try #require(store as? any TestStore)) }
}

/// A fresh SQLite store, for the tests of what only SQLite has (its file, its pragmas, its migrations).
@discardableResult
func withSQLiteStore<T>(
    clock: @escaping @Sendable () -> Int64 = StoreConfiguration.systemClock, _ body: (SQLiteStore) async throws -> T
) async throws -> T {
    try await withFreshStore(.sqlite, StoreConfiguration(clock: clock)) { store in try await body(try #require(store as? SQLiteStore)) }
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

extension FreshStore {
    /// A store of this place, seen as a ``TestStore``, with its own bounds on names (custom action ids, or all
    /// of them): a test may open several (collectors of one PostgreSQL database, or a SQLite file reopened).
    func testStore(maxActionIDs: Int = ActionIDs.defaultBound, nameBounds: NameBounds? = nil) async throws -> any TestStore {
        try #require(
            try await open(StoreConfiguration(nameBounds: nameBounds ?? NameBounds(actions: maxActionIDs))) as? any TestStore)
    }
}
