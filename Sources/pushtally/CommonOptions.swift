import ArgumentParser
import Foundation
import PushTallyCore

/// Exit codes scripts can rely on (also listed in `pushtally --help` and the README).
enum Exit {
    static let notFound = ExitCode(3)
    static let storeFailure = ExitCode(4)
}

/// `--database PATH`, falling back to `PUSHTALLY_DATABASE`, then `./pushtally.sqlite`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "SQLite database file (env PUSHTALLY_DATABASE; default ./pushtally.sqlite).")
    var database: String?

    @Option(help: "Days after sent_at until a push's figures are final (env PUSHTALLY_MATURITY_DAYS; default 7). Give serve and the CLI the same.")
    var maturityDays: Int?

    var path: String {
        database ?? ProcessInfo.processInfo.environment["PUSHTALLY_DATABASE"] ?? "./pushtally.sqlite"
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
    /// false, a missing file is exit code 3: a mistyped path must not quietly create an empty database.
    func open(mustExist: Bool = true) throws -> SQLiteStore {
        if mustExist, !FileManager.default.fileExists(atPath: path) {
            printError("no database at \(path) (pushtally serve --database \(path) creates one)")
            throw Exit.notFound
        }
        let configuration = try configuration()
        do {
            return try SQLiteStore(path: path, configuration: configuration)
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
