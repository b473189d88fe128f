import Foundation
import GRDB
import PushTallyCore
import Testing

@testable import PushTallySQLite

/// SQLite group commits are answered only once their write-ahead log is synced by the writer's durability
/// stage, which is what makes an acknowledged event survive a power loss.
@Suite(.timeLimit(.minutes(1))) struct LogSyncTests {
    /// A log sync held until released, as a slow disk would; after release it syncs the real log.
    final class HeldLogSync: @unchecked Sendable {
        private let real: WALSync
        private let entered = AsyncStream<Void>.makeStream()
        // Blocks the durability stage's own thread, as fdatasync does.
        private let release = DispatchSemaphore(value: 0)

        init(databasePath: String) {
            real = WALSync(databasePath: databasePath)
        }

        func callAsFunction() throws {
            entered.continuation.yield()
            release.wait()
            release.signal()
            try real.sync()
        }

        func started() async {
            var iterator = entered.stream.makeAsyncIterator()
            _ = await iterator.next()
        }

        func releaseAll() { release.signal() }
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    private func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    @Test func anIngestIsAnsweredOnlyOnceItsLogIsSynced() async throws {
        try await withDirectory { directory in
            let path = directory.appendingPathComponent("test.sqlite").path
            let sync = HeldLogSync(databasePath: path)
            let store = try SQLiteStore(
                path: path, configuration: StoreConfiguration(), deviceSecretPath: nil, logSync: { try sync() })
            let answered = Flag()
            let ingest = Task {
                let flags = try await store.ingest([receipt("p1", device: "d1", receipt: "r1")])
                answered.set()
                return flags
            }
            await sync.started()
            // Committed and visible to readers, but not acknowledged while its log is not on disk.
            let stored = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") }
            #expect(stored == 1)
            #expect(!answered.isSet)
            sync.releaseAll()
            #expect(try await ingest.value == [false])
            #expect(answered.isSet)
            try await store.shutdown()
        }
    }

    @Test func theSyncFindsTheLogItsDatabaseWrites() async throws {
        try await withDirectory { directory in
            let path = directory.appendingPathComponent("test.sqlite").path
            let store = try SQLiteStore(path: path)
            _ = try await store.ingest([receipt("p1")])
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
            try WALSync(databasePath: path).sync()
            try await store.shutdown()
        }
    }

    @Test func theSyncReopensALogMadeAgainAndFailsWithoutOne() async throws {
        try await withDirectory { directory in
            let path = directory.appendingPathComponent("plain").path
            let sync = WALSync(databasePath: path)
            let error = #expect(throws: (any Error).self) { try sync.sync() }
            // Answered as storage unavailable (503), not as a bug.
            #expect(error is any StorageUnavailableError)
            #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data("one".utf8)))
            try sync.sync()
            #expect(sync.inode == (try inode(of: path + "-wal")))
            // Made again aside and moved into place, so it cannot reuse the first file's inode.
            #expect(FileManager.default.createFile(atPath: path + "-next", contents: Data("two".utf8)))
            let first = try inode(of: path + "-wal")
            try FileManager.default.removeItem(atPath: path + "-wal")
            try FileManager.default.moveItem(atPath: path + "-next", toPath: path + "-wal")
            #expect(try inode(of: path + "-wal") != first)
            try sync.sync()
            #expect(sync.inode == (try inode(of: path + "-wal")))
        }
    }

    private func inode(of path: String) throws -> ino_t {
        var status = stat()
        guard stat(path, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return status.st_ino
    }
}
