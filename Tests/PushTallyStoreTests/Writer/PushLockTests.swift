import Foundation
import PostgresNIO
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// The advisory locks a transaction takes on PostgreSQL (``PushLocks``), read back from `pg_locks` inside it:
/// pushes in the mode asked, the lock over all devices shared beside one exclusive lock per device, and that lock
/// alone, exclusive, for a commit of more devices than the bound.
@Suite struct PushLockTests {
    /// The transaction's advisory locks: each key's 64-bit value (as `hashtextextended` gives it) and mode.
    static func held(on connection: PostgresConnection, logger: Logger) async throws -> [Int64: String] {
        var held: [Int64: String] = [:]
        let rows = try await connection.query(
            """
            SELECT ((classid::bigint << 32) | objid::bigint), mode FROM pg_locks
            WHERE locktype = 'advisory' AND pid = pg_backend_pid()
            """, logger: logger)
        for try await (key, mode) in rows.decode((Int64, String).self) { held[key] = mode }
        return held
    }

    static func key(_ text: String, on connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        var keys: [Int64] = []
        for try await key in try await connection.query("SELECT hashtextextended(\(text), 0)", logger: logger).decode(Int64.self) {
            keys.append(key)
        }
        return try #require(keys.first)
    }

    @Test func aCommitHoldsItsPushesInTheModeAskedAndEachDeviceExclusively() async throws {
        try await TestPostgres.withDatabase { url in
            try await TestPostgres.withConnection(to: PostgresURL(url)) { connection, logger in
                // Twice on one connection: the prepared statement's second run, and its other mode.
                for mode in [PushLocks.Mode.shared, .exclusive] {
                    try await connection.query("BEGIN", logger: logger)
                    try await PushLocks.lock(["p1", "p2"], mode: mode, devices: ["d1", "d2", "d3"], on: connection, logger: logger)
                    let held = try await Self.held(on: connection, logger: logger)
                    let pushMode = mode == .shared ? "ShareLock" : "ExclusiveLock"
                    var expected: [Int64: String] = [:]
                    for push in ["p1", "p2"] { expected[try await Self.key(push, on: connection, logger: logger)] = pushMode }
                    expected[try await Self.key("devices", on: connection, logger: logger)] = "ShareLock"
                    for device in ["d1", "d2", "d3"] {
                        expected[try await Self.key("device:" + device, on: connection, logger: logger)] = "ExclusiveLock"
                    }
                    #expect(held == expected)
                    try await connection.query("ROLLBACK", logger: logger)
                }
            }
        }
    }

    @Test func pastTheBoundOneExclusiveLockCoversEveryDevice() async throws {
        try await TestPostgres.withDatabase { url in
            try await TestPostgres.withConnection(to: PostgresURL(url)) { connection, logger in
                try await connection.query("BEGIN", logger: logger)
                let devices = Set((0...PushLocks.maximumDeviceLocks).map { "d\($0)" })
                try await PushLocks.lock(["p1"], mode: .shared, devices: devices, on: connection, logger: logger)
                let held = try await Self.held(on: connection, logger: logger)
                #expect(held == [
                    try await Self.key("p1", on: connection, logger: logger): "ShareLock",
                    try await Self.key("devices", on: connection, logger: logger): "ExclusiveLock",
                ])
                try await connection.query("ROLLBACK", logger: logger)
                // No push and no device: nothing locked.
                try await connection.query("BEGIN", logger: logger)
                try await PushLocks.lock([], mode: .shared, on: connection, logger: logger)
                #expect(try await Self.held(on: connection, logger: logger).isEmpty)
                try await connection.query("ROLLBACK", logger: logger)
            }
        }
    }
}
