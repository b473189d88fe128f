import ArgumentParser
import Foundation
import Logging
import PushTallyCore
import PushTallyPostgres

/// Exit codes scripts can rely on (also listed in `pushtally --help` and the README).
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

    @Option(help: "Days after sent_at until a push's figures are final (env PUSHTALLY_MATURITY_DAYS; default 7). Give serve and the CLI the same.")
    var maturityDays: Int?

    /// What `--database` (or its fallbacks) says, as given.
    var location: String {
        database ?? environment("PUSHTALLY_DATABASE") ?? "./pushtally.sqlite"
    }

    var isPostgres: Bool { PostgresURL.matches(location) }

    /// The SQLite file's path, without a `sqlite:` or `sqlite://` prefix.
    var path: String {
        for prefix in ["sqlite://", "sqlite:"] where location.hasPrefix(prefix) {
            return String(location.dropFirst(prefix.count))
        }
        return location
    }

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
        return configuration
    }

    /// Opens the store, turning a failure into a message on stderr and exit code 4. Unless `mustExist` is
    /// false, a missing SQLite file is exit code 3: a mistyped path must not quietly create an empty database.
    /// - Parameter needsDeviceSecret: whether the command sees raw device ids (serve, forget); PostgreSQL
    ///   commands that do not never touch the secret file.
    func open(mustExist: Bool = true, needsDeviceSecret: Bool = false) async throws -> any PushTallyStore {
        guard isPostgres else { return try openSQLite(mustExist: mustExist) }
        let configuration = try configuration()
        let connections = try databaseConnections ?? environment("PUSHTALLY_DATABASE_CONNECTIONS").map { value in
            guard let count = Int(value) else { throw ValidationError("PUSHTALLY_DATABASE_CONNECTIONS must be a number, not \(value)") }
            return count
        } ?? 8
        guard (1...1000).contains(connections) else { throw ValidationError("--database-connections must be from 1 to 1000") }
        let secret = needsDeviceSecret ? (deviceSecret ?? environment("PUSHTALLY_DEVICE_SECRET") ?? "./pushtally.secret") : nil
        do {
            var logger = Logger(label: "pushtally.postgres")
            logger.logLevel = .notice
            return try await PostgresStore(
                url: location, configuration: configuration, deviceSecretPath: secret, maximumConnections: connections,
                logger: logger)
        } catch {
            printError("cannot open database \((try? PostgresURL(location).description) ?? location): \(error)")
            throw Exit.storeFailure
        }
    }

    /// Opens a SQLite store (for the commands only SQLite has, such as backup).
    func openSQLite(mustExist: Bool = true) throws -> SQLiteStore {
        if mustExist, !FileManager.default.fileExists(atPath: path) {
            printError("no database at \(path) (pushtally serve --database \(path) creates one)")
            throw Exit.notFound
        }
        let configuration = try configuration()
        do {
            return try SQLiteStore(
                path: path, configuration: configuration,
                deviceSecretPath: deviceSecret ?? environment("PUSHTALLY_DEVICE_SECRET"))
        } catch {
            printError("cannot open database \(path): \(error)")
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
