import Foundation
import Logging
import PushTallyCore
import PushTallyPostgres
import PushTallySQLite

/// How to open a store: what `serve`, the CLI's commands and the tests say beside the location.
public struct StoreOptions: Sendable {
    /// The clock, maturity window and writer limits.
    public var configuration = StoreConfiguration()
    /// The device-id secret's file: SQLite keeps it at `DATABASE.secret` unless this says otherwise; every
    /// collector of a PostgreSQL database needs the same one (default `./pushtally.secret`).
    public var deviceSecretPath: String?
    /// Whether the caller sees raw device ids (serve, forget). PostgreSQL commands that do not never touch
    /// the secret file; SQLite always keeps its secret beside the database.
    public var needsDeviceSecret = false
    /// A SQLite file that does not exist yet is created (serve, keys) or refused (reports: a mistyped path must
    /// not quietly create an empty database).
    public var createIfMissing = true
    /// PostgreSQL connections per process.
    public var maximumConnections = 8
    /// PostgreSQL group-commit writers per process (each with a commit in flight); why one, at `PostgresStore.writers`.
    public var postgresWriters = 1
    /// How long a group commit may take before its requests are answered 503 (`serve --commit-timeout`); on
    /// SQLite, past its wait for another process's lock; on PostgreSQL, also the most a commit waits for a
    /// connection.
    public var commitTimeout: Duration = .seconds(5)
    /// This collector's first PostgreSQL rollup shard; drawn at random when `nil`.
    public var rollupShard: Int64?
    public var logger = Logger(label: "pushtally.postgres")

    public init() {}
}

/// Opening a store failed before any engine was asked.
public enum StoreOpenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A SQLite file that does not exist, opened with ``StoreOptions/createIfMissing`` off.
    case missingDatabase(path: String)
    /// A read replica that is not a PostgreSQL URL: SQLite has no replicas to read from.
    case replicaNeedsPostgres(String)
    /// A SQLite file this user may not read and write (every command needs both: migrations, the WAL), or
    /// whose folder it may not enter: it may well exist.
    case permissionDenied(path: String)

    public var description: String {
        switch self {
        case .missingDatabase(let path): "no database at \(path) (pushtally serve --database \(path) creates one)"
        case .permissionDenied(let path):
            "permission denied: \(path) cannot be read and written by this user (run as its owner, e.g. sudo -u pushtally, or fix its permissions)"
        case .replicaNeedsPostgres(let text):
            "--read-database takes a PostgreSQL standby's URL (postgres://…), not \(text): only PostgreSQL databases have replicas"
        }
    }
}

/// Opens the engine a location names. The one place that knows which engines exist: `serve`, every CLI
/// command and the tests open stores here, and see them only through the core's store roles.
public enum StoreFactory {
    /// The default device-secret file of PostgreSQL collectors.
    public static let defaultSharedSecretPath = "./pushtally.secret"

    /// Opens (creating and migrating where allowed) the store at `location`.
    /// - Throws: ``StoreOpenError/missingDatabase(path:)``, ``StoreError`` (a newer schema, a mismatched
    ///   secret, an unreachable server), or the engine's error.
    public static func open(_ location: StoreLocation, _ options: StoreOptions = StoreOptions()) async throws -> any PushTallyStore {
        switch location {
        case .sqlite(let path):
            if isDenied(path) { throw StoreOpenError.permissionDenied(path: path) }
            if !options.createIfMissing, !FileManager.default.fileExists(atPath: path) {
                throw StoreOpenError.missingDatabase(path: path)
            }
            return try SQLiteStore(
                path: path, configuration: options.configuration, deviceSecretPath: options.deviceSecretPath,
                commitTimeout: options.commitTimeout)
        case .postgres(let url):
            let secret = options.needsDeviceSecret ? (options.deviceSecretPath ?? defaultSharedSecretPath) : nil
            return try await PostgresStore(
                url: url, configuration: options.configuration, deviceSecretPath: secret,
                maximumConnections: options.maximumConnections, connectionTimeout: options.commitTimeout, commitTimeout: options.commitTimeout, writers: options.postgresWriters,
                rollupShard: options.rollupShard, logger: options.logger)
        }
    }

    /// Whether this process may not look at `path` (its folder cannot be entered), or read and write it: a
    /// file that cannot even be looked at is not therefore missing, and saying "no database" sent operators
    /// looking for a file that was there.
    private static func isDenied(_ path: String) -> Bool {
        var status = stat()
        if stat(path, &status) != 0 { return errno == EACCES }
        return access(path, R_OK | W_OK) != 0 && errno == EACCES
    }

    /// Opens a streaming standby of a PostgreSQL primary for report reads (``ReportReadRouter``).
    /// - Throws: ``StoreOpenError/replicaNeedsPostgres(_:)`` for a SQLite location, ``StoreError`` when the
    ///   standby holds no PushTally schema or a newer one, or the engine's error.
    public static func openReadReplica(_ location: StoreLocation, _ options: StoreOptions = StoreOptions()) async throws -> any ReadReplica {
        guard case .postgres(let url) = location else { throw StoreOpenError.replicaNeedsPostgres(location.description) }
        var logger = options.logger
        logger[metadataKey: "database"] = "replica"
        return try await PostgresStore.openReadReplica(
            url: url, configuration: options.configuration, maximumConnections: max(2, options.maximumConnections / 2), logger: logger)
    }
}
