/// A store whose whole database is one file on this machine (SQLite): operators back it up by copying it.
public protocol FileStore: Sendable {
    /// The database file's path.
    var path: String { get }
    /// The device-id secret's file, to back up with the database.
    var deviceSecretPath: String { get }
    /// Writes a consistent copy of the database to `path` while the server keeps running.
    func backup(to path: String) async throws
}
