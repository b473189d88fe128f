import ArgumentParser
import Foundation
import PushTallyAPI
import PushTallyCore

struct AlertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "Manage alert rules (evaluated by serve every --alert-interval; sent as alert.firing/alert.resolved).",
        subcommands: [List.self, Create.self, Delete.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an alert rule; prints its id.",
            discussion: """
                Kinds: receipts_stopped (display rate of pushes sent in the window, but the last --grace, below \
                --threshold), display_rate_drop (display rate below --threshold times the 7 days before), \
                version_not_posting (an app version's share of receipts below --threshold times its share of opens).
                """)

        @Option(help: "A unique name (it labels pushtally_alert_firing).")
        var name: String

        @Option(help: "\(AlertKind.allCases.map(\.rawValue).joined(separator: ", ")).")
        var kind: String

        @Option(help: "The span looked at, from 1m to 90d (e.g. 30m, 1h).")
        var window: String

        @Option(help: "A fraction: 0.2 is 20 %.")
        var threshold: Double

        @Option(help: "Fewer sent (opens, for version_not_posting) in the window than this and the alert stays ok.")
        var minSent: Int64

        @Option(help: "The latest stretch left out while its receipts still arrive (default 5m).")
        var grace: String?

        @Option(help: "Only this campaign.")
        var campaign: String?

        @Option(help: "Only this app (bundle id).")
        var app: String?

        @Flag(help: "Print the API's JSON answer.")
        var json = false

        @OptionGroup var source: SourceOptions

        func run() async throws {
            let source = try await source.open(mustExist: false)
            try await closing(source) {
                let definition = AlertDefinition(
                    name: name, kind: kind, window: window, threshold: threshold, minSent: minSent, grace: grace,
                    campaign: campaign, app: app)
                let answer = try await source.createAlert(definition)
                if json {
                    print(answer.json)
                } else if Terminal.isInteractive {
                    print("created alert \(answer.value.id) (\(answer.value.name))")
                } else {
                    print(answer.value.id)
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List alerts: id, name, kind, state, value, since, window, threshold, min sent, grace, scope.")

        @Flag(help: "Print the API's JSON answer.")
        var json = false

        @OptionGroup var source: SourceOptions

        func run() async throws {
            let source = try await source.open()
            try await closing(source) {
                let answer = try await source.alerts()
                if json { return print(answer.json) }
                var table = PlainTable(header: [
                    "id", .init("name", text: true), "kind", "state", "value", "since", "window", "threshold",
                    .init("min sent", optional: true), .init("grace", optional: true), .init("scope", text: true),
                ])
                table.rows = answer.value.map { alert in
                    let scope = [alert.campaign.map { "campaign=\($0)" }, alert.app.map { "app=\($0)" }].compactMap { $0 }
                    return [
                        alert.id, alert.name, alert.kind, alert.state, alert.value.map(Self.number) ?? PlainTable.missing,
                        alert.since, alert.window, Self.number(alert.threshold), String(alert.minSent), alert.grace,
                        scope.isEmpty ? PlainTable.missing : scope.joined(separator: " "),
                    ]
                }
                FileHandle.standardOutput.write(Data(table.render().utf8))
            }
        }

        /// Up to four decimals, without trailing zeros (`0.2`, `0.1234`).
        static func number(_ value: Double) -> String {
            var text = String(format: "%.4f", value)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an alert rule and its history.")

        @Argument(help: "The alert's id as `alerts list` shows it.")
        var id: String

        @OptionGroup var source: SourceOptions

        func run() async throws {
            let source = try await source.open()
            try await closing(source) {
                try await source.deleteAlert(id: id)
                print("deleted \(id)")
            }
        }
    }
}
