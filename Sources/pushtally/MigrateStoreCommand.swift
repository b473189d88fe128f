import ArgumentParser
import Foundation
import Logging
import PushTallyCore
import PushTallyPostgres

struct MigrateStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-store",
        abstract: "Copy a SQLite deployment into an empty PostgreSQL database, then check every report matches.",
        discussion: """
            The copy reads one consistent snapshot of the SQLite file: stop the SQLite collector first, or receipts \
            acknowledged after the snapshot stay behind (and the final check reports the difference). The device \
            secret is copied to --device-secret: give that file to every collector of the PostgreSQL database. \
            Exit 0 when the reports match, 4 when they do not or a store fails.
            """
    )

    @Option(help: "The SQLite database to copy (a path or sqlite:PATH).")
    var from: String

    @Option(help: "The PostgreSQL database to fill: postgres://user:password@host:5432/database (empty; its schema is created).")
    var to: String

    @Option(help: "The SQLite database's device secret (default FROM.secret).")
    var fromDeviceSecret: String?

    @Option(help: "Where the PostgreSQL collectors' device secret is written (default ./pushtally.secret).")
    var deviceSecret = "./pushtally.secret"

    @Option(help: "Rows per statement.")
    var pageSize = 5000

    func run() async throws {
        guard PostgresURL.matches(to) else { throw ValidationError("--to must be a postgres:// URL") }
        guard (1...10_000).contains(pageSize) else { throw ValidationError("--page-size must be from 1 to 10000") }
        var sourceOptions = try DatabaseOptions.parse(["--database", from])
        sourceOptions.deviceSecret = fromDeviceSecret
        guard !sourceOptions.isPostgres else { throw ValidationError("--from must be a SQLite database") }
        let opened = try await sourceOptions.open()
        try await closing(opened) {
            guard let source = opened as? any CopyableStore & FileStore else { throw ValidationError("--from must be a SQLite database") }
            try copySecret(from: source.deviceSecretPath)
            let targetOptions = try DatabaseOptions.parse(["--database", to, "--device-secret", deviceSecret])
            guard let target = try await targetOptions.open(mustExist: false, needsDeviceSecret: true) as? PostgresStore else {
                throw ValidationError("--to must be a postgres:// URL")
            }
            try await closing(target) {
                let migration = StoreMigration(from: source, to: target, pageSize: pageSize)
                let bar = ProgressBar()
                do {
                    try await migration.checkTargetIsEmpty()
                    try await migration.copy { table, copied, total in bar.show(table, copied, total) }
                } catch {
                    printError("copy failed; nothing was committed, so it can be run again: \(error)")
                    throw Exit.storeFailure
                }
                let check = try await migration.verify()
                guard check.mismatches.isEmpty else {
                    printError(
                        "copied, but these differ between the stores: \(check.mismatches.joined(separator: ", ")). "
                            + "Was the SQLite collector still running? Drop and recreate the PostgreSQL database, then run again.")
                    throw Exit.storeFailure
                }
                print(
                    "copied \(source.path) to \(target.location): \(check.rawEvents) raw events, \(check.pushes) pushes, "
                        + "\(check.tokens) tokens; reports match")
                print("device secret: \(deviceSecret) (give every collector this file, --device-secret)")
            }
        }
    }

    /// The collectors must key device ids exactly as the SQLite store did, or retries would not be recognised.
    private func copySecret(from path: String) throws {
        let manager = FileManager.default
        guard let secret = manager.contents(atPath: path) else {
            printError("no device secret at \(path) (give --from-device-secret)")
            throw Exit.notFound
        }
        if let existing = manager.contents(atPath: deviceSecret) {
            guard existing == secret else {
                printError("\(deviceSecret) holds another secret; move it away or pick another --device-secret")
                throw Exit.storeFailure
            }
            return
        }
        guard manager.createFile(atPath: deviceSecret, contents: secret, attributes: [.posixPermissions: 0o600]) else {
            printError("cannot write \(deviceSecret)")
            throw Exit.storeFailure
        }
    }
}

/// One line per table on stderr, redrawn in place on a terminal and written once per tenth otherwise.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let interactive = isatty(STDERR_FILENO) != 0
    private var lastTenth: [String: Int] = [:]

    func show(_ table: String, _ copied: Int, _ total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let fraction = total == 0 ? 1 : min(1, Double(copied) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let line = String(
            format: "%@ [%@%@] %3d%% %@/%@", table.padding(toLength: 16, withPad: " ", startingAt: 0) as NSString, String(repeating: "#", count: filled) as NSString,
            String(repeating: ".", count: width - filled) as NSString, Int(fraction * 100), "\(copied)" as NSString,
            "\(total)" as NSString)
        if interactive {
            FileHandle.standardError.write(Data(("\r" + line + (copied >= total ? "\n" : "")).utf8))
        } else {
            let tenth = Int(fraction * 10)
            guard lastTenth[table] != tenth else { return }
            lastTenth[table] = tenth
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}
