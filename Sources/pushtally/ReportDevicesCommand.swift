import ArgumentParser
import PushTallyCore

extension ReportCommand {
    struct Devices: ReportSubcommand {
        static let report = ReportDeclaration.devices
        @Option(help: "The window, in days before now (1 to 90, default 30).") var days: Int?
        @Option(name: .customLong("min-sends"), help: "Only devices sent at least this many pushes in the window (default 1).") var minSends: Int?
        @Option(help: "Only devices on this platform: ios, android, web or any other.") var platform: String?
        @OptionGroup var options: ReportOptions

        func run() async throws {
            try await options.run(.devices, [("days", days.map(String.init)), ("min_sends", minSends.map(String.init)), ("platform", platform)])
        }
    }
}
