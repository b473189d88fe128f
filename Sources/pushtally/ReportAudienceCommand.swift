import ArgumentParser
import PushTallyCore

extension ReportCommand {
    struct Audience: ReportSubcommand {
        static let report = ReportDeclaration.audience
        @Option(help: "A row per UTC day, app or app version: day, app or app_version (default: one row).") var by: String?
        @OptionGroup var options: ReportOptions

        func run() async throws { try await options.run(.audience, [("by", by)]) }
    }
}
