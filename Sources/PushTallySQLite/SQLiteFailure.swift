import GRDB
import PushTallyCore

/// A SQLite failure that is the machine's state, not a bug (disk full, I/O error, read-only or locked
/// database): the HTTP layer answers it 503 + Retry-After (``StorageFailure``).
struct SQLiteUnavailable: StorageUnavailableError {
    let error: DatabaseError

    var description: String { "\(error)" }

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
