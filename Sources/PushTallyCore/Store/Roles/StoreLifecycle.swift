import Foundation

/// Opening facts, health and shutdown.
public protocol StoreLifecycle: Sendable {
    /// Where the data lives, for logs and messages (a file path, or a URL without its password).
    var location: String { get }
    /// Whether a durable write would succeed now (for `/healthz`).
    func isWritable() async -> Bool
    /// The database's size on disk in bytes (`pushtally_database_bytes`), `nil` when it cannot be read now.
    func databaseBytes() async -> Int64?
    /// The database's disk and log, `nil` where the database is not a file of this machine's (PostgreSQL's
    /// disk is its server's to watch).
    func storageSpace() async -> StorageSpace?
    /// Commits what was acknowledged and stops taking writes; safe to call more than once.
    func close()
}

extension StoreLifecycle {
    public func storageSpace() async -> StorageSpace? { nil }

    /// `close()` from async code: it waits for the writers on a thread of its own, so the task only
    /// suspends. A writer's last commit may itself need the cooperative pool (PostgreSQL's does), which a
    /// blocked pool thread could starve.
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                nameCurrentThread("store-close")
                close()
                continuation.resume()
            }
            thread.start()
        }
    }
}
