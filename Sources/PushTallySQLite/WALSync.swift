import Foundation
import GRDB

/// Makes a database's write-ahead log durable from a thread of its own: `fdatasync` on a descriptor of
/// its own for the `-wal` file (a sync flushes the file, whichever descriptor wrote it).
///
/// It lets group commits run at `synchronous = NORMAL` (the log written, not synced) while their answers
/// wait for this sync (``DurabilityStage``). The log of a connection kept open is the same file for the
/// connection's life; the descriptor is reopened should the path ever name another file (the log removed
/// when every connection closed, then made again).
final class WALSync: @unchecked Sendable {
    private let path: String
    private var descriptor: Int32 = -1
    /// The file the descriptor is open on.
    private(set) var inode: ino_t = 0

    init(databasePath: String) {
        path = databasePath + "-wal"
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Syncs the log; called from one thread at a time (the durability stage's).
    func sync() throws {
        var current = stat()
        // No log while the writer's connection is open would be a state nothing here can vouch for.
        guard stat(path, &current) == 0 else { throw Self.failure("stat", errno) }
        if descriptor < 0 || current.st_ino != inode {
            if descriptor >= 0 { close(descriptor) }
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Self.failure("open", errno) }
            inode = current.st_ino
        }
        guard fdatasync(descriptor) == 0 else { throw Self.failure("fdatasync", errno) }
    }

    /// As SQLite reports a failed sync, so the HTTP layer answers it as storage unavailable (503).
    private static func failure(_ call: String, _ code: Int32) -> any Error {
        SQLiteUnavailable.surface(DatabaseError(
            resultCode: .SQLITE_IOERR_FSYNC,
            message: "\(call) of the write-ahead log failed: \(String(cString: strerror(code)))"))
    }
}
