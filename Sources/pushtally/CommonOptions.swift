import ArgumentParser
import Foundation
import Logging
import PushTallyCore
import PushTallyStores

/// Exit codes scripts can rely on (also listed in `pushtally --help` and docs/OPERATIONS.md).
enum Exit {
    static let notFound = ExitCode(3)
    static let storeFailure = ExitCode(4)
}

/// `--database`, falling back to `PUSHTALLY_DATABASE`, then `./pushtally.sqlite`: a SQLite file (a path or
/// `sqlite:PATH`) or a PostgreSQL URL (`postgres://user:password@host:5432/database`).
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: """
            SQLite file (a path or sqlite:PATH) or postgres://user:password@host:5432/database \
            (env PUSHTALLY_DATABASE; default ./pushtally.sqlite).
            """)
    var database: String?

    @Option(
        help: """
            Device-id secret file (env PUSHTALLY_DEVICE_SECRET; default DATABASE.secret for SQLite, ./pushtally.secret \
            for PostgreSQL). Every collector of one PostgreSQL database needs the same file.
            """)
    var deviceSecret: String?

    @Option(help: "PostgreSQL connections per process (env PUSHTALLY_DATABASE_CONNECTIONS; default 8).")
    var databaseConnections: Int?

    @Option(
        help: """
            SQLite writer's page cache in MB (env PUSHTALLY_SQLITE_CACHE_MB; default 8). Raise it when \
            millions of device or receipt ids make batch ingest re-read index pages; it is resident memory.
            """)
    var sqliteCacheMb: Int?

    @Option(help: "Days after sent_at until a push's figures are final (env PUSHTALLY_MATURITY_DAYS; default 7). Give serve and the CLI the same.")
    var maturityDays: Int?

    @Option(help: "A session within this long after a tap of a push is its direct open (env PUSHTALLY_DIRECT_WINDOW; default 5m).")
    var directWindow: String?

    @Option(
        help: """
            A session or conversion within this long after a push was displayed is influenced by it \
            (env PUSHTALLY_INFLUENCE_WINDOW; default 24h).
            """)
    var influenceWindow: String?

    @Option(
        help: """
            A conversion within this long after a tap of a push is direct for it (env PUSHTALLY_CONVERSION_WINDOW; \
            default 3d). Give serve and the CLI the same windows: a rebuild attributes by them.
            """)
    var conversionWindow: String?

    /// What `--database` (or its fallbacks) says, as given.
    var text: String {
        database ?? environment("PUSHTALLY_DATABASE") ?? "./pushtally.sqlite"
    }

    /// The engine and place `--database` names.
    var location: StoreLocation { StoreLocation(text) }

    var isPostgres: Bool { location.isPostgres }

    /// The store's settings from the flags and environment.
    func configuration() throws -> StoreConfiguration {
        var configuration = StoreConfiguration()
        if let days = try maturityDays ?? environment("PUSHTALLY_MATURITY_DAYS").map({ value in
            guard let days = Int(value) else { throw ValidationError("PUSHTALLY_MATURITY_DAYS must be a number of days, not \(value)") }
            return days
        }) {
            guard (1...365).contains(days) else { throw ValidationError("--maturity-days must be from 1 to 365") }
            configuration.maturityWindowMillis = Int64(days) * 86_400_000
        }
        configuration.attributionWindows = try attributionWindows()
        if let megabytes = try sqliteCacheMb ?? environment("PUSHTALLY_SQLITE_CACHE_MB").map({ value in
            guard let megabytes = Int(value) else { throw ValidationError("PUSHTALLY_SQLITE_CACHE_MB must be a number of megabytes, not \(value)") }
            return megabytes
        }) {
            guard (1...4096).contains(megabytes) else { throw ValidationError("--sqlite-cache-mb must be from 1 to 4096") }
            configuration.sqliteCacheMegabytes = megabytes
        }
        return configuration
    }

    /// The attribution windows from the flags and environment; each from 1 second to 30 days.
    func attributionWindows() throws -> AttributionWindows {
        var windows = AttributionWindows()
        func window(_ flag: String, _ value: String?, _ variable: String) throws -> Int64? {
            guard let text = value ?? environment(variable) else { return nil }
            let millis = try durationMillis(text, flag: flag)
            guard (1000...30 * 86_400_000).contains(millis) else {
                throw ValidationError("--\(flag) must be from 1s to 30d, not \(text)")
            }
            return millis
        }
        windows.directMillis = try window("direct-window", directWindow, "PUSHTALLY_DIRECT_WINDOW") ?? windows.directMillis
        windows.influenceMillis =
            try window("influence-window", influenceWindow, "PUSHTALLY_INFLUENCE_WINDOW") ?? windows.influenceMillis
        windows.conversionMillis =
            try window("conversion-window", conversionWindow, "PUSHTALLY_CONVERSION_WINDOW") ?? windows.conversionMillis
        return windows
    }

    /// `--database-connections`, from 1 to 1000.
    func connectionCount() throws -> Int {
        let connections = try databaseConnections ?? environment("PUSHTALLY_DATABASE_CONNECTIONS").map { value in
            guard let count = Int(value) else { throw ValidationError("PUSHTALLY_DATABASE_CONNECTIONS must be a number, not \(value)") }
            return count
        } ?? 8
        guard (1...1000).contains(connections) else { throw ValidationError("--database-connections must be from 1 to 1000") }
        return connections
    }

    /// What the flags and environment say about opening the store.
    func options(
        mustExist: Bool, needsDeviceSecret: Bool, nameBounds: NameBounds? = nil, commitTimeout: Duration? = nil, writers: Int = 1
    ) throws -> StoreOptions {
        var options = StoreOptions()
        if let commitTimeout { options.commitTimeout = commitTimeout }
        options.configuration = try configuration()
        if let nameBounds { options.configuration.nameBounds = nameBounds }
        options.createIfMissing = !mustExist
        options.needsDeviceSecret = needsDeviceSecret
        options.deviceSecretPath = deviceSecret ?? environment("PUSHTALLY_DEVICE_SECRET")
        options.maximumConnections = try connectionCount()
        options.postgresWriters = writers
        options.logger = Logger(label: "pushtally.postgres")
        options.logger.logLevel = .notice
        return options
    }

    /// Opens the store through ``StoreFactory``, turning a failure into a message on stderr and exit code 4.
    /// Unless `mustExist` is false, a missing SQLite file is exit code 3: a mistyped path must not quietly create
    /// an empty database.
    /// - Parameter needsDeviceSecret: whether the command sees raw device ids (serve, forget).
    /// - Parameter nameBounds: names per app (serve's `--max-action-ids`, `--max-platforms`, `--max-versions`); the
    ///   defaults otherwise.
    /// - Parameter commitTimeout: serve's `--commit-timeout`; the default otherwise.
    /// - Parameter writers: serve's `--database-writers`; one otherwise.
    func open(
        mustExist: Bool = true, needsDeviceSecret: Bool = false, nameBounds: NameBounds? = nil, commitTimeout: Duration? = nil,
        writers: Int = 1
    ) async throws -> any PushTallyStore {
        let options = try options(
            mustExist: mustExist, needsDeviceSecret: needsDeviceSecret, nameBounds: nameBounds, commitTimeout: commitTimeout,
            writers: writers)
        do {
            return try await StoreFactory.open(location, options)
        } catch let error as StoreOpenError {
            printError(error.description)
            if case .permissionDenied = error { throw Exit.storeFailure }
            throw Exit.notFound
        } catch {
            printError("cannot open database \(location): \(error)")
            throw Exit.storeFailure
        }
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, csv, json
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("pushtally: \(message)\n".utf8))
}

/// Reads an environment variable for a flag that was not given.
func environment(_ name: String) -> String? {
    ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
}
