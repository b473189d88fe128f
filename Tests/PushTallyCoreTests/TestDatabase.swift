import Foundation
import PushTallyCore

/// A fresh SQLite file in its own temporary folder, removed afterwards.
@discardableResult
func withStore<T>(
    clock: @escaping @Sendable () -> Int64 = StoreConfiguration.systemClock,
    highWaterMark: Int = 100_000,
    maturityWindow: Int64 = StoreConfiguration.defaultMaturityWindowMillis,
    _ body: (SQLiteStore) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SQLiteStore(
        path: directory.appendingPathComponent("test.sqlite").path,
        configuration: StoreConfiguration(writerHighWaterMark: highWaterMark, maturityWindowMillis: maturityWindow, clock: clock))
    defer { store.close() }
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
