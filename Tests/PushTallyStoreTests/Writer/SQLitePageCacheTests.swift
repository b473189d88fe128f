import Foundation
import GRDB
import PushTallyCore
import Testing

@testable import PushTallySQLite

/// The writer's page cache is resident memory that fills with every page it touches, so its size is the
/// operator's choice: 8 MB unless configured.
@Suite struct SQLitePageCacheTests {
    private func writerCacheSize(_ configuration: StoreConfiguration) throws -> Int {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-cache-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm", ".secret"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteStore(path: path, configuration: configuration)
        defer { store.closeInBackground() }
        return try store.pool.write { try Int.fetchOne($0, sql: "PRAGMA cache_size") ?? 0 }
    }

    @Test func theWriterKeepsEightMegabytesByDefault() throws {
        #expect(try writerCacheSize(StoreConfiguration()) == -8192)
    }

    @Test func theWriterTakesTheConfiguredCache() throws {
        #expect(try writerCacheSize(StoreConfiguration(sqliteCacheMegabytes: 64)) == -65_536)
    }
}
