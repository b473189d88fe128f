/// An engine's error meaning the storage itself is unavailable (disk full, an I/O error, a read-only or locked
/// database): the machine's state, not a bug, so it is answered 503 + Retry-After. Engines wrap such errors
/// in a type conforming to this protocol at their boundary.
public protocol StorageUnavailableError: Error, CustomStringConvertible {
    /// What is wrong, for the refusal's message (`the disk is full`, `the database is locked by another
    /// connection or process`).
    var reason: String { get }
    /// How long a client should wait before it retries: a lock passes sooner than a full disk is cleared.
    var retryAfterSeconds: Int { get }
}
