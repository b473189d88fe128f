import ArgumentParser
import PushTallyCore

extension ReportCommand {
    struct Variants: ReportSubcommand {
        static let report = ReportDeclaration.variants
        @Option(help: "The campaign's name.") var campaign: String
        @Option(help: "The variant the others are compared with (default: control if there is one, else the first by name).")
        var control: String?
        @OptionGroup var options: ReportOptions

        func run() async throws { try await options.run(.variants, pathValue: campaign, [("control", control)]) }
    }
}
