import ArgumentParser
import Foundation
import PushTallyAPI
import PushTallyCore
import PushTallyUseCases

/// `pushtally import fcm FILE...`: FCM's delivery data from its BigQuery export, into the database or a server.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import delivery data from push services.", subcommands: [FCM.self])

    struct FCM: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fcm",
            abstract: "Import FCM's BigQuery export of message events (NDJSON, plain or gzip, as bq extract writes it).",
            discussion: """
                A bad row refuses its file before any of it is stored, naming the line; a directory is refused too \
                (name the files in it). A file is stored in transactions of 5,000 rows, which the collector's \
                receipts take turns with; a row already imported (same message_id, instance_id and event) counts \
                once, so a file cut short by a database fault is finished by importing it again. With --server the \
                token needs the backend or admin role. Exit code 5 when a file was refused.
                """
        )

        @Argument(help: "Export files (.json, .ndjson, or gzip-compressed).")
        var files: [String]

        @OptionGroup var source: SourceOptions

        func run() async throws {
            // Instance ids are keyed with the device secret, as the collectors key them.
            let source = try await source.open(mustExist: false, needsDeviceSecret: true)
            try await closing(source) {
                var total = FCMImportSummary()
                var refused = 0
                for file in files {
                    var isDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
                        refused += 1
                        print("\(file): refused, nothing stored: a directory, not an export file (name the files in it: \(file)/*)")
                        continue
                    }
                    let bytes: Data
                    do {
                        bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                    } catch {
                        printError("cannot read \(file): \(error.localizedDescription)")
                        throw Exit.notFound
                    }
                    do {
                        let summary = try await source.importFCM(bytes)
                        total.add(summary)
                        print("\(file): \(Self.line(summary))")
                    } catch let refusal as Refusal {
                        refused += 1
                        print("\(file): refused, nothing stored: \(refusal.message)")
                    }
                }
                if files.count > 1 { print("total: \(Self.line(total))") }
                if refused > 0 { throw ExitCode(5) }
            }
        }

        static func line(_ summary: FCMImportSummary) -> String {
            "rows \(summary.rows), stored \(summary.stored), duplicates \(summary.duplicates), orphans \(summary.orphans), unlabelled \(summary.unlabelled)"
        }
    }
}

extension SourceOptions.Source {
    /// Imports one FCM export file; a file refused (a bad row, or too large for the server) is a ``Refusal``.
    func importFCM(_ file: Data) async throws -> FCMImportSummary {
        let gzip = file.starts(with: [0x1F, 0x8B])
        switch self {
        case .database(let store):
            let limit = FCMExportReader.maxFileBytes
            let tooLarge = Refusal(message: "larger than \(limit >> 20) MiB inflated; export it in smaller files (bq extract to a wildcard URI)")
            guard file.count <= limit else { throw tooLarge }
            var text = file
            if gzip {
                var inflated = Data()
                do {
                    let inflater = try GzipInflater()
                    try file.withUnsafeBytes { input in
                        try inflater.feed(input) { (piece) throws(GzipInflater.Failure) in
                            // Stops a small file that inflates past the bound before it is held whole.
                            guard inflated.count + piece.count <= limit else { throw .tooLarge }
                            inflated.append(contentsOf: piece)
                        }
                    }
                    try inflater.finish()
                } catch GzipInflater.Failure.tooLarge {
                    throw tooLarge
                } catch {
                    throw Refusal(message: "not valid gzip: \(error)")
                }
                text = inflated
            }
            do {
                return try await store.importFCM(try FCMExportReader.rows(text))
            } catch let error as FCMRowError {
                throw Refusal(message: error.description)
            }
        case .server(let client):
            do {
                return try await client.importFCM(file, gzip: gzip)
            } catch PushTallyAPIError.refused(let status, let body?, _) where (400..<500).contains(status) && status != 401 && status != 403 {
                throw Refusal(message: body.line.map { _ in body.message } ?? "server answered \(status): \(body.message)")
            } catch let error as PushTallyAPIError {
                printError(error.description)
                throw Exit.storeFailure
            }
        }
    }
}
