import ArgumentParser
import Foundation
import PushTallyCore
import PushTallyUseCases

/// `7d`, `24h`, `90m`, `3600s`, `2w` as milliseconds.
func durationMillis(_ value: String, flag: String) throws -> Int64 {
    guard let millis = DurationText.millis(value) else {
        throw ValidationError("--\(flag) takes a duration such as 90d, 24h or 30m")
    }
    return millis
}

struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete raw events older than the retention window; their counts fold into the ledger, reports stay."
    )

    @Option(help: "Delete raw events received longer ago than this (e.g. 90d; default 90d).")
    var olderThan: String?

    @Option(help: ArgumentHelp(
        "Delete raw events received before this time instead (unix seconds or ISO 8601, e.g. 2026-10-01T00:00:00Z).",
        valueName: "time"))
    var before: String?

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if olderThan != nil, before != nil { throw ValidationError("give --older-than or --before, not both") }
    }

    func run() async throws {
        let cutoff: Int64
        if let before {
            do {
                cutoff = try Timestamp.millis(from: .string(before), field: "before")
            } catch {
                throw ValidationError("--before must be unix seconds or ISO 8601 (2026-10-01T00:00:00Z), not \(before)")
            }
        } else {
            cutoff = StoreConfiguration.systemClock() - (try durationMillis(olderThan ?? "90d", flag: "older-than"))
        }
        let store = try await database.open()
        try await closing(store) {
            let pruned = try await store.prune(receivedBefore: cutoff, batchSize: 5000)
            print("pruned \(pruned) raw events received before \(Timestamp.iso8601(millis: cutoff))")
        }
    }
}

struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Delete every raw event of one device (rollup counts stay, as aggregates)."
    )

    @Option(help: "The device id as the app sent it.")
    var device: String

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let store = try await database.open(needsDeviceSecret: true)
        try await closing(store) {
            // Ingest keeps ids in NFC (CanonicalText): the same spelling finds what it stored.
            let deviceID = try checked { () throws(FieldError) in try TimelineDeviceID.checked(device) }
            print("forgot \(try await store.forget(deviceID: deviceID)) raw events of that device")
        }
    }
}

struct RollupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollup", abstract: "Maintain rollups.", subcommands: [Rebuild.self])

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompute every rollup from the raw events plus the ledger of pruned counts.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await database.open()
            try await closing(store) {
                try await store.rebuildRollups()
                print("rebuilt rollups from \(try await store.rawEventCount()) raw events and the ledger")
            }
        }
    }
}

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the database while the server runs (SQLite VACUUM INTO).",
        discussion: "Copy the device-id secret (DATABASE.secret) beside the backup too: device ids are keyed by it."
    )

    @Argument(help: "Where to write the copy; it must not exist yet.")
    var path: String

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        guard !database.isPostgres else {
            // The password stays out of the command line (and so out of `ps` and shell history): pg_dump reads
            // PGPASSWORD or ~/.pgpass.
            printError(
                "backup copies a SQLite file; back a PostgreSQL database up with pg_dump, e.g. "
                    + "PGPASSWORD=... pg_dump --format=custom --file=\(path) '\(database.location.withoutPassword)' "
                    + "(pg_restore reads it back), or with pg_basebackup or your replication")
            throw ExitCode.validationFailure
        }
        let opened = try await database.open()
        try await closing(opened) {
            guard let store = opened as? any FileStore else {
                printError("backup copies a SQLite file; \(database.location) is not one")
                throw ExitCode.validationFailure
            }
            do {
                try await store.backup(to: path)
            } catch let error as FieldError {
                printError(error.message)
                throw Exit.storeFailure
            }
            try? FileManager.default.copyItem(atPath: store.deviceSecretPath, toPath: path + ".secret")
            print("backed up \(store.path) to \(path)")
        }
    }
}

struct ImportEventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-events",
        abstract: "Read an export back (idempotent: events already taken from the same source are skipped)."
    )

    @Argument(help: "A file written by `pushtally export`.")
    var file: String

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        guard FileManager.default.fileExists(atPath: file) else {
            printError("no file \(file)")
            throw Exit.notFound
        }
        let store = try await database.open(mustExist: false)
        try await closing(store) {
            var header: ExportHeader?
            var added = 0
            var read = 0
            do {
                try await readExport(into: store, header: &header, read: &read, added: &added)
            } catch let failure as GzipInflater.Failure {
                // What came before the break is in (import is idempotent): the same file, whole, can be read again.
                let reason = if case .malformed(let reason) = failure { reason } else { "\(failure)" }
                printError("\(file) is not a whole gzip file (\(reason)); imported \(added) new of the \(read) events read before that")
                throw ExitCode.validationFailure
            }
            print("read \(read) events, imported \(added) new, skipped \(read - added) already present")
        }
    }

    private func readExport(into store: any PushTallyStore, header: inout ExportHeader?, read: inout Int, added: inout Int) async throws {
        try await GzipFileReader.lines(path: file) { lines in
            var lines = lines[...]
            if header == nil, let first = lines.first {
                guard let parsed = ExportFormat.header(line: first) else {
                    printError("\(file) is not a PushTally export this version can read")
                    throw ExitCode.validationFailure
                }
                header = parsed
                lines = lines.dropFirst()
            }
            let events = try lines.filter { !$0.isEmpty }.map(ExportFormat.event(line:))
            read += events.count
            added += try await store.importEvents(events, source: header!.source)
        }
    }
}

/// Carries a value into a `@Sendable` closure that is known to run synchronously on the caller's behalf.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
