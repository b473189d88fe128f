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

    /// A subcommand's flags are read by the API's reading of its query, an empty flag as given (not as absent):
    /// a refusal is a usage error (exit 64) with the server's message, before any database is opened.
    @Test func flagsAreReadAsTheQueryIs() async throws {
        let missing = "/nonexistent/pushtally.sqlite"
        let cases: [([String], String)] = [
            (["timeseries", "--bucket", ""], "bucket must be one of hour, day, not "),
            (["timeseries", "--tz", "Nowhere/Land"], "Nowhere/Land"),
            (["campaigns", "--by", "region"], "by must be one of priority, push_type, platform, not region"),
            (["audience", "--by", "priority"], "by must be one of day, app, app_version, not priority"),
            (["audience", "--environment", "sandbox"], "the audience report takes no parameter environment"),
            (["versions", "--dimension", ""], "dimension must be one of app_version, os_version, platform, not "),
            (["attribution", "--app", "com.example"], "the attribution report takes no parameter app"),
        ]
        for (arguments, message) in cases {
            let run = try await runPushtally(["report"] + arguments + ["--database", missing])
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }
}
