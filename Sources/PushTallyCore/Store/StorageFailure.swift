/// An engine's error meaning the storage itself is unavailable (disk full, an I/O error, a read-only or locked
/// database): the machine's state, not a bug, so it is answered 503 + Retry-After. Engines wrap such errors
/// in a type conforming to this protocol at their boundary.
public protocol StorageUnavailableError: Error, CustomStringConvertible {}

/// Classifies errors for the HTTP layer.
public enum StorageFailure {
    /// Whether `error` says the storage is unavailable for now: a retry later may well succeed.
    public static func isUnavailable(_ error: any Error) -> Bool {
        error is any StorageUnavailableError
    }
}
