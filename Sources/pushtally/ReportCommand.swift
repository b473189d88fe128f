import ArgumentParser
import Foundation
import PushTallyCore

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print a report, read straight from the database file (same numbers as the HTTP API).",
        subcommands: [Campaigns.self]
    )

    /// Options every report takes.
    struct ReportOptions: ParsableArguments {
        @OptionGroup var database: DatabaseOptions

        @Option(help: "Output format: table, csv or json (default: table on a terminal, csv otherwise).")
        var format: OutputFormat?

        @Option(help: "Only pushes sent at or after this time (ISO 8601 or unix seconds).")
        var from: String?

        @Option(help: "Only pushes sent before this time (ISO 8601 or unix seconds).")
        var to: String?

        @Flag(help: "Prefix CSV with a UTF-8 byte order mark, so Excel shows CJK text correctly.")
        var bom = false

        func filter() throws -> ReportFilter {
            func time(_ value: String?, _ name: String) throws -> Int64? {
                guard let value else { return nil }
                do {
                    return try Timestamp.millis(from: .string(value), field: name)
                } catch {
                    throw ValidationError(error.message)
                }
            }
            return ReportFilter(fromMillis: try time(from, "from"), toMillis: try time(to, "to"))
        }

        func write(_ table: ReportTable) {
            let output: String
            switch format ?? (isatty(STDOUT_FILENO) == 1 ? .table : .csv) {
            case .table: output = TextTableRenderer.render(table)
            case .csv: output = CSVRenderer.render(table, bom: bom)
            case .json: output = String(decoding: JSONRenderer.render(table), as: UTF8.self) + "\n"
            }
            FileHandle.standardOutput.write(Data(output.utf8))
        }
    }

    struct Campaigns: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sent vs displayed vs opened, one row per campaign.")

        @OptionGroup var options: ReportOptions

        func run() async throws {
            let store = try options.database.open()
            defer { store.close() }
            let pushes = try await store.pushFigures(try options.filter())
            options.write(CampaignReport.table(CampaignReport.rows(pushes)))
        }
    }
}

struct RateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Print a campaign's display rate (displayed_unique / sent), or an empty line when nothing was sent."
    )

    @Option(help: "The campaign's name.")
    var campaign: String

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let store = try database.open()
        defer { store.close() }
        let rows = CampaignReport.rows(try await store.pushFigures(ReportFilter(campaign: campaign)))
        guard let row = rows.first else {
            printError("no push is registered in campaign \(campaign)")
            throw Exit.notFound
        }
        print(row.funnel.displayRate.map { String($0) } ?? "")
    }
}
