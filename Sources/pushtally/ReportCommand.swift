import ArgumentParser
import Foundation
import PushTallyCore

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print a report from the database file or a running server (same numbers as the HTTP API).",
        subcommands: ReportKinds.all.map(subcommand(for:))
    )

    /// The subcommands of reports with flags of their own; every other report takes only the options all
    /// reports take (``DeclaredReportCommand``).
    static var withOwnFlags: [any ReportSubcommand.Type] {
        [Campaigns.self, Campaign.self, Push.self, Pushes.self, Timeseries.self, Versions.self, Variants.self, Audience.self, Devices.self]
    }

    /// The subcommand that runs `report`.
    static func subcommand(for report: ReportDeclaration) -> any ParsableCommand.Type {
        withOwnFlags.first { $0.report == report } ?? declared(report.kind)
    }

    private static func declared<Kind: ReportKind>(_ kind: Kind.Type) -> any ParsableCommand.Type {
        DeclaredReportCommand<Kind>.self
    }

    /// Options every report takes.
    struct ReportOptions: ParsableArguments {
        @OptionGroup var source: SourceOptions

        @OptionGroup var replica: ReadReplicaOptions

        @Option(help: "Output format: table, csv or json (default: table on a terminal, csv otherwise).")
        var format: OutputFormat?

        @Flag(help: "In a table, every column (by its CSV name) instead of the key ones.")
        var wide = false

        @Option(help: "From this time (ISO 8601 or unix seconds; a date alone is its midnight, in --tz for timeseries); on sent_at, or on event time for timeseries and attribution.")
        var from: String?

        @Option(help: "Before this time (ISO 8601 or unix seconds; a date alone is its midnight); not before --from.")
        var to: String?

        @Option(help: "Only pushes to this app (bundle id).")
        var app: String?

        @Option(help: "Only pushes to this APNs environment: production or sandbox.")
        var environment: String?

        @Flag(help: "Prefix CSV with a UTF-8 byte order mark, so Excel shows CJK text correctly.")
        var bom = false

        /// Runs `report` with the subcommand's own flags given as the API's query `parameters` (`nil`: not
        /// given), read by the server's reading of them (``ReportQuery``), so both refuse alike.
        func run(_ report: ReportDeclaration, pathValue: String? = nil, _ parameters: [(String, String?)] = []) async throws {
            for (name, value) in [("from", from), ("to", to), ("app", app), ("environment", environment)] where value != nil {
                try checked { () throws(FieldError) in try ReportQuery.check(name, takenBy: report) }
            }
            // The range goes in as the route's parameters: a date alone is read in the report's --tz, and a range
            // that ends before it starts is refused as the route refuses it.
            let given = (parameters + [("from", from), ("to", to), ("app", app), ("environment", environment)]).compactMap { name, value in
                value.map { (name: name, value: $0) }
            }
            let query = try checked { () throws(FieldError) in try ReportQuery(pairs: given, report: report, emptyIsAbsent: false) }
            let request = try checked { () throws(FieldError) in try query.request(report, pathValue: pathValue) }
            try replica.check(primary: source)
            let source = try await source.open()
            try await closing(source) {
                let reads = try await replica.reads(for: source, primary: self.source.database)
                try await closing(replica: reads?.replica) {
                    let format = format ?? (Terminal.isInteractive ? .table : .csv)
                    let output: String
                    switch format {
                    case .table:
                        output = HumanTableRenderer.render(try await source.table(request, reads: reads), style: Terminal.style(wide: wide))
                    case .csv: output = try await source.text(request, json: false, bom: bom, reads: reads)
                    case .json: output = try await source.text(request, json: true, bom: false, reads: reads) + "\n"
                    }
                    FileHandle.standardOutput.write(Data(output.utf8))
                }
            }
        }
    }

    struct Campaigns: ReportSubcommand {
        static let report = ReportDeclaration.campaigns
        @Option(help: "A row per campaign and value of this APNs attribute (priority or push_type), or per platform.") var by: String?
        @Option(help: "Only events from this platform: ios, android, web, any other (ASCII letters in any case), or unknown.") var platform: String?
        @OptionGroup var options: ReportOptions
        func run() async throws { try await options.run(.campaigns, [("by", by), ("platform", platform)]) }
    }

    struct Campaign: ReportSubcommand {
        static let report = ReportDeclaration.campaign
        @Argument(help: "The campaign's name.") var name: String
        @Option(help: "Only events from this platform: ios, android, web, any other (ASCII letters in any case), or unknown.") var platform: String?
        @OptionGroup var options: ReportOptions
        func run() async throws { try await options.run(.campaign, pathValue: name, [("platform", platform)]) }
    }

    struct Push: ReportSubcommand {
        static let report = ReportDeclaration.push
        @Argument(help: "The push id.") var id: String
        @Option(help: "Only events from this platform: ios, android, web, any other (ASCII letters in any case), or unknown.") var platform: String?
        @OptionGroup var options: ReportOptions
        func run() async throws { try await options.run(.push, pathValue: id, [("platform", platform)]) }
    }

    struct Pushes: ReportSubcommand {
        static let report = ReportDeclaration.pushes
        @Option(help: "Only pushes of this campaign.") var campaign: String?
        @Flag(help: "Only pushes nobody registered yet (receipts arrived first).") var orphan = false
        @Option(help: "Only events from this platform: ios, android, web, any other (ASCII letters in any case), or unknown.") var platform: String?
        @OptionGroup var options: ReportOptions
        func run() async throws {
            try await options.run(.pushes, [("campaign", campaign), ("orphan", orphan ? "true" : nil), ("platform", platform)])
        }
    }

    struct Timeseries: ReportSubcommand {
        static let report = ReportDeclaration.timeseries
        @Option(help: "Only this campaign.") var campaign: String?
        @Option(name: .customLong("push-id"), help: "Only this push.") var pushID: String?
        @Option(help: "Bucket width: hour or day.") var bucket: String = "day"
        @Option(help: "IANA time zone for the buckets, e.g. Asia/Taipei.") var tz: String = "UTC"
        @Option(help: "Only events from this platform: ios, android, web, any other (ASCII letters in any case), or unknown.") var platform: String?
        @OptionGroup var options: ReportOptions

        func run() async throws {
            try await options.run(
                .timeseries, [("campaign", campaign), ("push_id", pushID), ("platform", platform), ("bucket", bucket), ("tz", tz)])
        }
    }

    struct Versions: ReportSubcommand {
        static let report = ReportDeclaration.versions
        @Option(help: "app_version, os_version or platform.") var dimension = "app_version"
        @Option(help: "Only this campaign.") var campaign: String?
        @Option(name: .customLong("push-id"), help: "Only this push.") var pushID: String?
        @OptionGroup var options: ReportOptions

        func run() async throws {
            try await options.run(.versions, [("campaign", campaign), ("push_id", pushID), ("dimension", dimension)])
        }
    }
}

/// A `pushtally report` subcommand with flags of its own, named and described by its report's declaration.
protocol ReportSubcommand: AsyncParsableCommand {
    static var report: ReportDeclaration { get }
}

extension ReportSubcommand {
    static var configuration: CommandConfiguration { CommandConfiguration(report: report) }
}

/// The subcommand of a report that takes only the options every report takes.
struct DeclaredReportCommand<Kind: ReportKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(report: Kind.declaration) }
    @OptionGroup var options: ReportCommand.ReportOptions
    func run() async throws { try await options.run(Kind.declaration) }
}

extension CommandConfiguration {
    /// A `pushtally report` subcommand named and described by its report's declaration.
    init(report: ReportDeclaration) {
        self.init(commandName: report.name, abstract: report.summary)
    }
}

/// A flag's value checked by the core's rule for the same API parameter: a refusal is a usage error (exit 64)
/// with the message the server answers with.
func checked<T>(_ check: () throws(FieldError) -> T) throws -> T {
    do {
        return try check()
    } catch {
        throw ValidationError(error.message)
    }
}

/// A time flag (ISO 8601 or unix seconds) in milliseconds, or a usage error naming the flag.
func parseTime(_ value: String?, _ flag: String) throws -> Int64? {
    guard let value else { return nil }
    do {
        return try Timestamp.millis(from: .string(value), field: flag)
    } catch {
        throw ValidationError("--\(flag): \(error.message)")
    }
}

struct RateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Print a campaign's display rate (displayed_unique / sent), or an empty line when nothing was sent."
    )

    @Option(help: "The campaign's name.")
    var campaign: String

    @Option(help: "Only pushes sent within this long before now: 90m, 24h, 7d (or a time, ISO 8601 / unix seconds).")
    var since: String?

    @Option(help: "Output format: plain (the rate alone, as a number), table, csv or json (default: the rate as a percent on a terminal, plain otherwise).")
    var format: RateFormat?

    @OptionGroup var source: SourceOptions

    @OptionGroup var replica: ReadReplicaOptions

    enum RateFormat: String, ExpressibleByArgument, CaseIterable {
        case plain, table, csv, json
    }

    func run() async throws {
        var filter = ReportFilter(campaign: campaign)
        if let since {
            filter.fromMillis = try Self.sinceMillis(since, now: StoreConfiguration.systemClock())
        }
        try replica.check(primary: source)
        let source = try await source.open()
        try await closing(source) {
            let reads = try await replica.reads(for: source, primary: self.source.database)
            try await closing(replica: reads?.replica) { try await show(from: source, reads: reads, filter: filter) }
        }
    }

    private func show(from source: SourceOptions.Source, reads: ReportReadRouter?, filter: ReportFilter) async throws {
        let request = ReportRequest(.campaigns, filter: filter)
        if format == .json {
            print(try await source.text(request, json: true, bom: false, reads: reads))
            return
        }
        let table = try await source.table(request, reads: reads)
        guard let rate = table.values(of: "display_rate").first else {
            printError("no push is registered in campaign \(campaign)\(since.map { " sent since \($0)" } ?? "")")
            throw Exit.notFound
        }
        switch format {
        case nil where Terminal.isInteractive: print(rate.map { HumanTableRenderer.cell($0) } ?? "–")
        case nil, .plain: print(rate.map(CSVRenderer.cell) ?? "")
        case .csv: FileHandle.standardOutput.write(Data(CSVRenderer.render(table).utf8))
        default: FileHandle.standardOutput.write(Data(HumanTableRenderer.render(table, style: Terminal.style(wide: false)).utf8))
        }
    }

    /// `7d`, `24h`, `90m`, `3600s` before `now`, or an absolute time.
    static func sinceMillis(_ value: String, now: Int64) throws -> Int64 {
        if let duration = try? durationMillis(value, flag: "since") { return now - duration }
        guard let time = try? parseTime(value, "since") else {
            throw ValidationError("--since takes a duration such as 7d, 24h, 90m, or a time (ISO 8601 or unix seconds)")
        }
        return time
    }
}
