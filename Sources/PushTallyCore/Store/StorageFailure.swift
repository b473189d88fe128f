import GRDB

/// Classifies database failures that are the machine's state, not a bug: answered 503 + Retry-After.
public enum StorageFailure {
    /// Disk full, I/O error, read-only or locked database: a retry later may well succeed.
    public static func isUnavailable(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        switch error.resultCode {
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CANTOPEN, .SQLITE_NOMEM:
            return true
        default:
            return false
        }
    }
}
