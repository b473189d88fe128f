import Foundation
import GRDB

/// How large the write-ahead log may grow before SQLite checkpoints it, by the room left on the database's
/// disk: ``SQLiteStore/checkpointPages`` (64 MB) where there is room, so a page many commits touch is copied
/// once; down to a small log on a small volume, which a 64 MB log would fill before its first checkpoint
/// (a container volume or a VPS disk near its end). Looked at every ``interval`` from the writer thread, the
/// only one that uses it.
package final class WALBudget: @unchecked Sendable {
    /// How often the free space is looked at again.
    static let interval: Duration = .seconds(5)
    /// The smallest log kept between checkpoints, in pages.
    package static let minimumPages = 100

    private let directory: String
    private var lastLook: ContinuousClock.Instant?
    private var applied: Int?

    init(databasePath: String) {
        directory = Self.directory(of: databasePath)
    }

    /// The folder a database file is in (`.` for a bare file name).
    static func directory(of databasePath: String) -> String {
        let folder = (databasePath as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// The log's page budget for `freeBytes` on its disk: a quarter of the free space, within bounds.
    package static func pages(freeBytes: Int64, pageSize: Int64 = 4096) -> Int {
        let quarter = freeBytes / 4 / max(1, pageSize)
        return Int(min(Int64(SQLiteStore.checkpointPages), max(Int64(minimumPages), quarter)))
    }

    /// Free bytes (for an unprivileged writer) and size of the disk holding `directory`, or `nil` when the
    /// system does not say.
    static func disk(at directory: String) -> (free: Int64, size: Int64)? {
        var stats = statvfs()
        guard statvfs(directory, &stats) == 0 else { return nil }
        return (Int64(stats.f_bavail) * Int64(stats.f_frsize), Int64(stats.f_blocks) * Int64(stats.f_frsize))
    }

    /// Sets the writer connection's `wal_autocheckpoint` from the free space, when it is time to look again
    /// (at once after ``lookAgain()``).
    func apply(_ db: Database) throws {
        let now = ContinuousClock.now
        if let lastLook, now - lastLook < Self.interval { return }
        lastLook = now
        guard let free = Self.disk(at: directory)?.free else { return }
        let pages = Self.pages(freeBytes: free)
        guard pages != applied else { return }
        try db.execute(sql: "PRAGMA wal_autocheckpoint = \(pages)")
        applied = pages
    }

    /// The next commit looks at the free space again (the disk filled, or was freed).
    func lookAgain() {
        lastLook = nil
    }
}
