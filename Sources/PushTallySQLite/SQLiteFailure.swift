import GRDB
import PushTallyCore

/// A SQLite failure that is the machine's state, not a bug (disk full, I/O error, read-only or locked
/// database): the HTTP layer answers it 503 + Retry-After (``StorageFailure``).
struct SQLiteUnavailable: StorageUnavailableError {
    let error: DatabaseError

    var description: String { "\(error)" }

    var reason: String {
        switch error.resultCode {
        case .SQLITE_FULL: "the disk is full"
        case .SQLITE_BUSY, .SQLITE_LOCKED: "the database is locked by another connection or process"
        case .SQLITE_READONLY: "the database is read-only"
        case .SQLITE_CANTOPEN: "the database file cannot be opened"
        case .SQLITE_NOMEM: "the server is out of memory"
        default: "the disk reported an I/O error"
        }
    }

    var retryAfterSeconds: Int {
        [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) ? 5 : 30
    }

    /// `error` wrapped when it says the storage is unavailable; otherwise `error` as it is.
    static func surface(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CANTOPEN, .SQLITE_NOMEM:
            return SQLiteUnavailable(error: error)
        default:
            return error
        }
    }
}

extension SQLiteStore {
    /// A read transaction, its failures surfaced as ``SQLiteUnavailable`` where that is what they are.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await pool.read(body) } catch { throw SQLiteUnavailable.surface(error) }
    }

    /// A write transaction, likewise.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await pool.write(body) } catch { throw SQLiteUnavailable.surface(error) }
    }
}
