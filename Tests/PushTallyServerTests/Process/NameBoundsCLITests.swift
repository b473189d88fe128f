import Foundation
import PushTallyTestSupport
import Testing

/// `serve --max-platforms` and `--max-versions` (and their environment variables) on the real binary, receipts
/// posted by Python's `urllib` as an app's extension would, read back with `pushtally report versions`.
@Suite struct NameBoundsCLITests {
    /// Posts one form receipt of push `p` naming `platform` and `version` for app and OS, through `urllib`.
    static func post(_ server: ServerProcess, platform: String, version: String, receipt: Int) async throws {
        let script = """
            import sys, urllib.parse, urllib.request
            body = urllib.parse.urlencode({"push_id": "p", "receipt_id": sys.argv[2], "platform": sys.argv[3],
                                           "app_version": sys.argv[4], "os_version": sys.argv[4]}).encode()
            with urllib.request.urlopen(urllib.request.Request(sys.argv[1] + "/v1/receipts", data=body)) as answer:
                assert answer.status == 204, answer.status
            """
        let result = try await runProcess(
            "/usr/bin/python3", ["-c", script, server.baseURL.absoluteString, "r\(receipt)", platform, version])
        #expect(result.status == 0, "\(result.output)")
    }

    /// The names the versions report lists for `dimension`, from the CLI reading the store file.
    static func names(_ server: ServerProcess, _ dimension: String) async throws -> [String] {
        let report = try await runPushtally(
            ["report", "versions", "--dimension", dimension, "--format", "csv", "--database", server.databasePath])
        #expect(report.status == 0, "\(report.stderr)")
        let lines = report.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.dropFirst()
        return lines.map { String($0.split(separator: ",").first ?? "") }.sorted()
    }

    @Test func theFlagsAndTheEnvironmentBoundEachAppsNames() async throws {
        let server = try ServerProcess(extraArguments: ["--max-platforms", "1"], environment: ["PUSHTALLY_MAX_VERSIONS": "2"])
        defer { server.removeFiles() }
        try await server.start()
        for (n, name) in ["tvos", "watchos", "visionos"].enumerated() {
            try await Self.post(server, platform: name, version: "\(n + 1).0", receipt: n)
        }
        try await Self.post(server, platform: "ios", version: "1.0", receipt: 9)
        #expect(try await server.stop() == 0)
        #expect(try await Self.names(server, "platform") == ["ios", "other", "tvos"])
        #expect(try await Self.names(server, "app_version") == ["1.0", "2.0", "other"])
        #expect(try await Self.names(server, "os_version") == ["1.0", "2.0", "other"])
        #expect(server.log.contains("platform values past the bound count as other"), "\(server.log)")
    }

    @Test func boundsOutOfRangeAreRefusedNamingTheFlag() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-bounds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("b.sqlite").path
        for (flag, value) in [("--max-platforms", "0"), ("--max-versions", "10001"), ("--max-action-ids", "0")] {
            let refused = try await runPushtally(["serve", "--port", "0", flag, value, "--database", database])
            #expect(refused.status == 64, "\(flag)")
            #expect(refused.stderr.contains("\(flag) must be from 1 to 10000"), "\(refused.stderr)")
        }
        let notANumber = try await runPushtally(["serve", "--port", "0", "--database", database], environment: ["PUSHTALLY_MAX_PLATFORMS": "many"])
        #expect(notANumber.status == 64)
        #expect(notANumber.stderr.contains("PUSHTALLY_MAX_PLATFORMS must be a number, not many"), "\(notANumber.stderr)")
    }
}
