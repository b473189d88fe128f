import Foundation
import GRDB
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallySQLite

/// The writer's page cache is resident memory that fills with every page it touches, so its size is the
/// operator's choice: 8 MB unless configured.
@Suite struct SQLitePageCacheTests {
    private func writerCacheSize(_ configuration: StoreConfiguration) async throws -> Int {
        try await FreshStore.with(.sqlite, name: "cache") { fresh in
            let store = try SQLiteStore(path: fresh.sqlitePath, configuration: configuration, commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            return try await store.pool.write { try Int.fetchOne($0, sql: "PRAGMA cache_size") ?? 0 }
        }
    }

    @Test func theWriterKeepsEightMegabytesByDefault() async throws {
        #expect(try await writerCacheSize(StoreConfiguration()) == -8192)
    }

    @Test func theWriterTakesTheConfiguredCache() async throws {
        #expect(try await writerCacheSize(StoreConfiguration(sqliteCacheMegabytes: 64)) == -65_536)
    }
}
