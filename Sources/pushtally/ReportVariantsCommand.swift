import ArgumentParser
import PushTallyCore

extension ReportCommand {
    struct Variants: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A campaign's A/B variants: display and open rates with 95% intervals, lift and p-value against the control.")
        @Option(help: "The campaign's name.") var campaign: String
        @Option(help: "The variant the others are compared with (default: control if there is one, else the first by name).")
        var control: String?
        @OptionGroup var options: ReportOptions

        func run() async throws { try await options.run(.variants(campaign, control: control)) }
    }
}
