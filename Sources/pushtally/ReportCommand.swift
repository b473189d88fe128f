import ArgumentParser
import Foundation
import PushTallyCore

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print a report from the database file or a running server (same numbers as the HTTP API).",
        subcommands: [Campaigns.self, Campaign.self, Push.self, Pushes.self, Timeseries.self, Versions.self, Attribution.self, Variants.self]
    )

    /// Options every report takes.
    struct ReportOptions: ParsableArguments {
        @OptionGroup var source: SourceOptions

        @Option(help: "Output format: table, csv or json (default: table on a terminal, csv otherwise).")
        var format: OutputFormat?

        @Flag(help: "In a table, every column (by its CSV name) instead of the key ones.")
        var wide = false

        @Option(help: "From this time (ISO 8601 or unix seconds); on sent_at, or on event time for timeseries and attribution.")
        var from: String?

        @Option(help: "Before this time (ISO 8601 or unix seconds).")
        var to: String?

        @Option(help: "Only pushes to this app (bundle id).")
        var app: String?

        @Option(help: "Only pushes to this APNs environment: production or sandbox.")
        var environment: String?

        @Flag(help: "Prefix CSV with a UTF-8 byte order mark, so Excel shows CJK text correctly.")
        var bom = false

        func filter() throws -> ReportFilter {
            ReportFilter(
                fromMillis: try parseTime(from, "from"), toMillis: try parseTime(to, "to"), app: app,
                environment: try environment.map { value in try checked { () throws(FieldError) in try ReportQuery.environment(value) } })
        }

        func run(
            _ subject: ReportSubject, by: ReportGrouping? = nil, configure: (inout ReportFilter) -> Void = { _ in }
        ) async throws {
            var filter = try filter()
            configure(&filter)
            let request = ReportRequest(subject, filter: filter, by: by)
            for (name, value) in [("from", from), ("to", to), ("app", app), ("environment", environment)] where value != nil {
                try checked { () throws(FieldError) in try ReportQuery.check(name, takenBy: request.report) }
            }
            let source = try await source.open()
            try await closing(source) {
                let format = format ?? (Terminal.isInteractive ? .table : .csv)
                let output: String
                switch format {
                case .table: output = HumanTableRenderer.render(try await source.table(request), style: Terminal.style(wide: wide))
                case .csv: output = try await source.text(request, json: false, bom: bom)
                case .json: output = try await source.text(request, json: true, bom: false) + "\n"
                }
                FileHandle.standardOutput.write(Data(output.utf8))
            }
        }
    }

    struct Campaigns: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sent vs displayed vs opened, one row per campaign.")
        @Option(help: "A row per campaign and value of this APNs attribute: priority or push_type.") var by: String?
        @OptionGroup var options: ReportOptions
        func run() async throws {
            let grouping = try by.map { value in try checked { () throws(FieldError) in try ReportQuery.grouping(value) } }
            try await options.run(.campaigns, by: grouping)
        }
    }

    struct Campaign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One row per push of a campaign (drill-down).")
        @Argument(help: "The campaign's name.") var name: String
        @OptionGroup var options: ReportOptions
        func run() async throws { try await options.run(.campaign(name)) }
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One push's funnel, time to display and actions.")
        @Argument(help: "The push id.") var id: String
        @OptionGroup var options: ReportOptions
        func run() async throws { try await options.run(.push(id)) }
    }

    struct Pushes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One row per push; --orphan lists unregistered push ids.")
        @Option(help: "Only pushes of this campaign.") var campaign: String?
        @Flag(help: "Only pushes nobody registered yet (receipts arrived first).") var orphan = false
        @OptionGroup var options: ReportOptions
        func run() async throws {
            try await options.run(.pushes(orphan: orphan ? true : nil)) { $0.campaign = campaign }
        }
    }

    struct Timeseries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Displays, opens and actions per local hour or day.")
        @Option(help: "Only this campaign.") var campaign: String?
        @Option(name: .customLong("push-id"), help: "Only this push.") var pushID: String?
        @Option(help: "Bucket width: hour or day.") var bucket: String = "day"
        @Option(help: "IANA time zone for the buckets, e.g. Asia/Taipei.") var tz: String = "UTC"
        @OptionGroup var options: ReportOptions

        func run() async throws {
            let width = try checked { () throws(FieldError) in try ReportQuery.bucket(bucket) }
            let zone = try checked { () throws(FieldError) in try TimeseriesOptions.zone(named: tz) }
            try await options.run(.timeseries(TimeseriesOptions(width: width, timeZone: zone, name: tz))) {
                $0.campaign = campaign
                $0.pushID = pushID
            }
        }
    }
}

extension ReportCommand {
    struct Versions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Receipt health: receipts vs opens per app or OS version; flags extensions that do not post.")
        @Option(help: "app_version or os_version.") var dimension = "app_version"
        @Option(help: "Only this campaign.") var campaign: String?
        @Option(name: .customLong("push-id"), help: "Only this push.") var pushID: String?
        @OptionGroup var options: ReportOptions

        func run() async throws {
            let name = dimension
            let parsed = try checked { () throws(FieldError) in try ReportQuery.dimension(name) }
            try await options.run(.versions(parsed)) {
                $0.campaign = campaign
                $0.pushID = pushID
            }
        }
    }
}

extension ReportCommand {
    struct Attribution: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sessions and conversions by credit (direct, influenced, unattributed) and their value, by event time.")
        @OptionGroup var options: ReportOptions
        func run() async throws { try await options.run(.attribution) }
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

    enum RateFormat: String, ExpressibleByArgument, CaseIterable {
        case plain, table, csv, json
    }

    func run() async throws {
        var filter = ReportFilter(campaign: campaign)
        if let since {
            filter.fromMillis = try Self.sinceMillis(since, now: StoreConfiguration.systemClock())
        }
        let source = try await source.open()
        try await closing(source) {
            let request = ReportRequest(.campaigns, filter: filter)
            if format == .json {
                print(try await source.text(request, json: true, bom: false))
                return
            }
            let table = try await source.table(request)
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
