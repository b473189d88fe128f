import PushTallyCore
import PushTallyTestSupport
import Testing

/// `pushtally report` has a subcommand per declared report (``ReportKinds/all``), named and described by it.
@Suite struct ReportSubcommandTests {
    @Test func everyDeclaredReportIsASubcommand() async throws {
        let listed = try #require(try await DocsTests.subcommands(["report"]), "pushtally report --help failed")
        #expect(listed == Set(ReportKinds.all.map(\.name)))
        let help = try await runPushtally(["report", "--help"]).stdout
        for report in ReportKinds.all {
            // The summary's first words: help wraps long lines.
            let start = report.summary.split(separator: " ").prefix(3).joined(separator: " ")
            #expect(help.contains(start), "\(report.name): \(report.summary)")
        }
    }
}
