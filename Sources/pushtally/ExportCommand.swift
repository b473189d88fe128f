import ArgumentParser
import Foundation
import PushTallyAPI
import PushTallyCore
import PushTallyUseCases

/// `pushtally export`: the event feed into a directory of files for a warehouse (`--out`), the raw events of a
/// time window into one file for `import-events` (`--output`), or the feed's schema for a warehouse (`--schema`).
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write stored events for a warehouse (--out DIR) or for import-events (--output FILE).",
        discussion: """
            With --out, every event after the directory's manifest.json (or --after, for a new directory) is \
            written in commit order as numbered files, gzip NDJSON or Parquet, each listed with its rows, cursors \
            and SHA-256 in manifest.json once it is whole. Run it again to go on: it is resumable after a crash \
            and adds nothing twice. --server reads the feed through a running server (an export or admin token).
            With --output, the raw events received in a time window go into one gzip NDJSON file that \
            import-events reads.
            """
    )

    @Option(help: "A directory of event files and their manifest.json: written, or gone on with.")
    var out: String?

    @Option(help: "Start after this feed cursor (a line's cursor); only for a new --out directory.")
    var after: String?

    @Option(help: "The --out files' format: ndjson (gzip) or parquet.")
    var format: FeedExport.Format = .ndjson

    @Option(help: "The most events an --out file holds.")
    var rowsPerFile: Int = 100_000

    @Option(help: "After an --out run, write its Prometheus metrics to this file (node_exporter's textfile collector).")
    var metricsFile: String?

    @Option(help: "Print the feed's schema for a warehouse: bigquery, clickhouse, duckdb, postgres or jsonschema.")
    var schema: FeedSchema.Dialect?

    @Option(help: "With --output: events received at or after this time (ISO 8601 or unix seconds).")
    var since: String?

    @Option(help: "With --output: events received before this time.")
    var until: String?

    @Option(name: .shortAndLong, help: "One gzip NDJSON file of the events received in a time window (.ndjson.gz), for import-events.")
    var output: String?

    @OptionGroup var source: SourceOptions

    func validate() throws {
        let modes = [out != nil, output != nil, schema != nil].filter { $0 }.count
        guard modes == 1 else { throw ValidationError("give one of --out DIR, --output FILE or --schema DIALECT") }
        if out == nil, after != nil || metricsFile != nil {
            throw ValidationError("--after and --metrics-file go with --out")
        }
        if output == nil, since != nil || until != nil { throw ValidationError("--since and --until go with --output") }
        if output != nil, source.isRemote { throw ValidationError("--output reads the database; --server goes with --out") }
        guard rowsPerFile >= 1 else { throw ValidationError("--rows-per-file must be at least 1") }
    }

    func run() async throws {
        if let schema {
            print(FeedSchema.render(schema), terminator: "")
            return
        }
        let opened = try await source.open()
        try await closing(opened) {
            if let out {
                try await exportFiles(to: out, from: opened)
            } else if let output, case .database(let store) = opened {
                try await exportWindow(to: output, from: store)
            }
        }
    }

    private func exportFiles(to directory: String, from opened: SourceOptions.Source) async throws {
        let reader: any EventFeedReader = switch opened {
        case .database(let store): store
        case .server(let client): client
        }
        let start = try after.map { text throws(FieldError) in try EventCursor(text: text) }
        let export = FeedExport(
            directory: URL(fileURLWithPath: directory), format: format, rowsPerFile: rowsPerFile,
            createdBy: "pushtally \(BuildVersion.text)")
        let outcome: FeedExport.Outcome
        do {
            outcome = try await export.run(from: reader, after: start)
        } catch let error as FieldError {
            throw ValidationError(error.message)
        } catch let error as PushTallyAPIError {
            printError(error.description)
            throw ExitCode.failure
        }
        let rows = outcome.files.reduce(0) { $0 + $1.rows }
        print("wrote \(outcome.files.count) files, \(rows) events, to \(directory); the export is at \(outcome.manifest.last_cursor ?? "its start")")
        if let metricsFile { try FeedExportMetrics.write(to: metricsFile) }
    }

    private func exportWindow(to output: String, from store: any PushTallyStore) async throws {
        let writer = try GzipFileWriter(path: output)
        let header = ExportFormat.header(source: try await store.databaseID(), exportedAtMillis: StoreConfiguration.systemClock())
        try writer.write(try ExportFormat.line(header))
        let box = UncheckedBox(writer)
        let count = try await store.exportEvents(sinceMillis: try parseTime(since, "since"), untilMillis: try parseTime(until, "until")) { event in
            try box.value.write(try ExportFormat.line(event))
        }
        try writer.finish()
        print("exported \(count) raw events to \(output)")
    }
}

extension FeedExport.Format: ExpressibleByArgument {}
extension FeedSchema.Dialect: ExpressibleByArgument {}
