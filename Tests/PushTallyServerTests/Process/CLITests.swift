import Foundation
import PushTallyTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.serialized) struct CLITests {
    /// Seeds a running server over HTTP and returns it (stopped) with its admin token.
    func seededServer() async throws -> ServerProcess {
        let server = try ServerProcess()
        try await server.start()
        let auth = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        _ = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/pushes/p1"), method: "PUT", headers: auth,
            body: Data(#"{"campaign":"新年促销","sent":4}"#.utf8))
        _ = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/pushes/p2"), method: "PUT", headers: auth,
            body: Data(#"{"campaign":"=cmd","sent":3}"#.utf8))
        _ = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"[{"push_id":"p1","device_id":"a"},{"push_id":"p1","device_id":"a"},{"push_id":"p1","device_id":"b"},{"push_id":"p2"},{"push_id":"lost"}]"#.utf8))
        _ = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/actions"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"[{"push_id":"p1","action":"open"},{"push_id":"p1","action":"view"}]"#.utf8))
        return server
    }

    @Test func reportFromTheFileEqualsTheHTTPReport() async throws {
        let server = try await seededServer()
        defer { server.removeFiles() }
        for format in ["json", "csv"] {
            let http = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/reports/campaigns").appending(queryItems: [.init(name: "format", value: format)]),
                headers: ["Authorization": "Bearer \(server.adminToken)"])
            let cli = try await runPushtally(["report", "campaigns", "--format", format, "--database", server.databasePath])
            #expect(cli.status == 0, "\(cli.stderr)")
            #expect(cli.stdout.trimmingCharacters(in: .newlines) == String(decoding: http.body, as: UTF8.self).trimmingCharacters(in: .newlines))
        }
        #expect(try await server.stop() == 0)
    }

    @Test func tableFormatAndDatabaseFromTheEnvironment() async throws {
        let server = try await seededServer()
        defer { server.removeFiles() }
        #expect(try await server.stop() == 0)
        let table = try await runPushtally(["report", "campaigns", "--format", "table"], environment: ["PUSHTALLY_DATABASE": server.databasePath])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("campaign") == true)
        #expect(lines.contains { $0.hasPrefix("新年促销") })
        #expect(lines.count == 4)  // header, two campaigns, orphans
    }

    @Test func rateCommandPrintsTheDisplayRate() async throws {
        let server = try await seededServer()
        defer { server.removeFiles() }
        #expect(try await server.stop() == 0)
        let rate = try await runPushtally(["rate", "--campaign", "新年促销", "--database", server.databasePath])
        #expect(rate.status == 0)
        #expect(rate.stdout == "0.5\n")
        let missing = try await runPushtally(["rate", "--campaign", "nope", "--database", server.databasePath])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("nope"))
    }

    @Test func keysCreateListRevoke() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("k.sqlite").path
        let created = try await runPushtally(["keys", "create", "--role", "read", "--label", "dashboard", "--database", database])
        #expect(created.status == 0)
        let token = created.stdout.trimmingCharacters(in: .newlines)
        #expect(token.hasPrefix("pt_") && !token.contains("\n") && token.count == 80)
        let list = try await runPushtally(["keys", "list", "--database", database])
        let columns = list.stdout.split(separator: "\n").first?.split(separator: "\t").map(String.init) ?? []
        #expect(columns.count == 5)
        #expect(columns[1] == "read")
        #expect(columns[2] == "active")
        #expect(!list.stdout.contains(token.suffix(64)))
        #expect(try await runPushtally(["keys", "revoke", columns[0], "--database", database]).status == 0)
        #expect(try await runPushtally(["keys", "list", "--database", database]).stdout.contains("\trevoked\t"))
        #expect(try await runPushtally(["keys", "revoke", columns[0], "--database", database]).status == 3)
        let badRole = try await runPushtally(["keys", "create", "--role", "root", "--database", database])
        #expect(badRole.status == 64)
    }
}

@Suite(.serialized) struct CLIReportTests {
    /// Every report, from the file and from the server (`--server`), in every format, is identical.
    @Test func serverAndFileGiveIdenticalReports() async throws {
        let server = try await CLITests().seededServer()
        defer { server.removeFiles() }
        let reports: [[String]] = [
            ["campaigns"], ["campaign", "新年促销"], ["push", "p1"], ["pushes", "--orphan"],
            ["timeseries", "--bucket", "hour", "--tz", "Asia/Kolkata"], ["versions", "--dimension", "os_version"],
        ]
        for report in reports {
            for format in ["csv", "json", "table"] {
                let local = try await runPushtally(["report"] + report + ["--format", format, "--database", server.databasePath])
                let remote = try await runPushtally(
                    ["report"] + report + ["--format", format, "--server", server.baseURL.absoluteString, "--token", server.adminToken])
                #expect(local.status == 0, "\(report) \(format): \(local.stderr)")
                #expect(remote.status == 0, "\(report) \(format): \(remote.stderr)")
                #expect(local.stdout == remote.stdout, "\(report) \(format)")
                #expect(!local.stdout.isEmpty)
            }
        }
        // `rate` reads the display rate from the report's rows, decoded from the server's JSON when remote.
        for format in ["plain", "table", "csv", "json"] {
            let arguments = ["rate", "--campaign", "新年促销", "--format", format]
            let local = try await runPushtally(arguments + ["--database", server.databasePath])
            let remote = try await runPushtally(arguments + ["--server", server.baseURL.absoluteString, "--token", server.adminToken])
            #expect(local.status == 0 && remote.status == 0, "rate \(format): \(remote.stderr)")
            #expect(local.stdout == remote.stdout, "rate \(format)")
        }
        // Environment variables stand in for the flags.
        let viaEnvironment = try await runPushtally(
            ["report", "campaigns", "--format", "csv"],
            environment: ["PUSHTALLY_SERVER": server.baseURL.absoluteString, "PUSHTALLY_TOKEN": server.adminToken])
        #expect(viaEnvironment.stdout == (try await runPushtally(["report", "campaigns", "--format", "csv", "--database", server.databasePath])).stdout)
        #expect(try await server.stop() == 0)
    }

    @Test func exitCodesScriptsCanRelyOn() async throws {
        let server = try await CLITests().seededServer()
        defer { server.removeFiles() }
        let missing = try await runPushtally(["report", "push", "nope", "--database", server.databasePath])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("nope"))
        let missingRemote = try await runPushtally(["report", "push", "nope", "--server", server.baseURL.absoluteString, "--token", server.adminToken])
        #expect(missingRemote.status == 3)
        let unauthorized = try await runPushtally(["report", "campaigns", "--server", server.baseURL.absoluteString, "--token", "bad"])
        #expect(unauthorized.status == 4)
        #expect(unauthorized.stderr.contains("401"))
        let badZone = try await runPushtally(["report", "timeseries", "--tz", "Nowhere/Land", "--database", server.databasePath])
        #expect(badZone.status == 64)
        let badTime = try await runPushtally(["report", "campaigns", "--from", "whenever", "--database", server.databasePath])
        #expect(badTime.status == 64)
        // The CLI refuses what the API refuses, with the API's message.
        for (arguments, message) in [
            (["report", "campaigns", "--environment", "prod"], "environment must be one of production, sandbox, not prod"),
            (["report", "timeseries", "--bucket", "week"], "bucket must be one of hour, day, not week"),
            (["report", "versions", "--dimension", "sdk"], "dimension must be one of app_version, os_version, platform, not sdk"),
            (["report", "push", "p1", "--from", "1795000000"], "the push report takes no parameter from; it takes format, bom"),
        ] {
            let refused = try await runPushtally(arguments + ["--database", server.databasePath])
            #expect(refused.status == 64, "\(arguments)")
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
        }
        #expect(try await server.stop() == 0)
        let unreachable = try await runPushtally(["report", "campaigns", "--server", server.baseURL.absoluteString])
        #expect(unreachable.status == 4)
        let help = try await runPushtally(["--help"])
        #expect(help.stdout.contains("Exit codes"))
        // A mistyped database path is "not found", and creates nothing.
        let typo = server.databasePath + "-typo"
        let noDatabase = try await runPushtally(["report", "campaigns", "--database", typo])
        #expect(noDatabase.status == 3)
        #expect(noDatabase.stderr.contains("no database"))
        #expect(!FileManager.default.fileExists(atPath: typo))
        #expect(try await runPushtally(["rate", "--campaign", "c", "--database", typo]).status == 3)
    }

    @Test func theMaturityWindowIsConfigurable() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-maturity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("m.sqlite").path
        let sends = directory.appendingPathComponent("sends.ndjson")
        try #"{"push_id":"p1","campaign":"c","sent_at":"2026-11-20T08:00:00Z","sent":5}"#.write(to: sends, atomically: true, encoding: .utf8)
        #expect(try await runPushtally(["pushes", "import", sends.path, "--database", database]).status == 0)
        let standard = try await runPushtally(["report", "push", "p1", "--format", "json", "--database", database])
        #expect(standard.stdout.contains(#""final_at":"2026-11-27T08:00:00Z""#))
        let threeDays = try await runPushtally(["report", "push", "p1", "--format", "json", "--database", database], environment: ["PUSHTALLY_MATURITY_DAYS": "3"])
        #expect(threeDays.stdout.contains(#""final_at":"2026-11-23T08:00:00Z""#))
        let flag = try await runPushtally(["report", "push", "p1", "--format", "json", "--maturity-days", "1", "--database", database])
        #expect(flag.stdout.contains(#""final_at":"2026-11-21T08:00:00Z""#))
        #expect(try await runPushtally(["report", "push", "p1", "--maturity-days", "0", "--database", database]).status == 64)
    }

    @Test func theSQLitePageCacheIsConfigurableWithinBounds() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("c.sqlite").path
        let sends = directory.appendingPathComponent("sends.ndjson")
        try #"{"push_id":"p1","campaign":"c","sent":5}"#.write(to: sends, atomically: true, encoding: .utf8)
        #expect(try await runPushtally(["pushes", "import", sends.path, "--sqlite-cache-mb", "64", "--database", database]).status == 0)
        let report = try await runPushtally(["report", "push", "p1", "--format", "json", "--database", database], environment: ["PUSHTALLY_SQLITE_CACHE_MB": "8"])
        #expect(report.status == 0)
        #expect(report.stdout.contains(#""sent":5"#))
        for tooSmallOrLarge in ["0", "4097"] {
            let refused = try await runPushtally(["report", "push", "p1", "--sqlite-cache-mb", tooSmallOrLarge, "--database", database])
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--sqlite-cache-mb must be from 1 to 4096"))
        }
        let notANumber = try await runPushtally(["report", "push", "p1", "--database", database], environment: ["PUSHTALLY_SQLITE_CACHE_MB": "lots"])
        #expect(notANumber.status == 64)
        #expect(notANumber.stderr.contains("PUSHTALLY_SQLITE_CACHE_MB must be a number of megabytes, not lots"))
    }

    @Test func rateSinceAndFormats() async throws {
        let server = try await CLITests().seededServer()
        defer { server.removeFiles() }
        #expect(try await server.stop() == 0)
        // The seeded pushes have no sent_at, so --since filters on their first receipt: just now.
        let recent = try await runPushtally(["rate", "--campaign", "新年促销", "--since", "7d", "--database", server.databasePath])
        #expect(recent.stdout == "0.5\n")
        let future = try await runPushtally(["rate", "--campaign", "新年促销", "--since", "2099-01-01T00:00:00Z", "--database", server.databasePath])
        #expect(future.status == 3)
        let json = try await runPushtally(["rate", "--campaign", "新年促销", "--format", "json", "--database", server.databasePath])
        #expect(json.stdout.contains("\"display_rate\":0.5"))
        let bad = try await runPushtally(["rate", "--campaign", "x", "--since", "soon", "--database", server.databasePath])
        #expect(bad.status == 64)
    }

    @Test func importRegistersGoodLinesAndReportsBadOnes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("i.sqlite").path
        let csv = directory.appendingPathComponent("sends.csv")
        try """
            push_id,campaign,title,sent_at,targeted,sent,failed:Unregistered,failed:BadDeviceToken
            p1,新年促销,"Hello, world",2026-11-20T08:00:00Z,100,90,7,3
            p2,,missing campaign,,,,,
            p3,spring,,1795161600,10,lots,,
            p4,spring,,,5,5,,
            p5,spring,,,5,5
            p6,spring,,,5,5,,,9

            """.write(to: csv, atomically: true, encoding: .utf8)
        let result = try await runPushtally(["pushes", "import", csv.path, "--database", database])
        #expect(result.status == 5)
        #expect(result.stdout.contains("imported 2 (created 2, updated 0), rejected 4"), "\(result.stdout)")
        #expect(result.stdout.contains("line 3: missing_field (campaign)"))
        #expect(result.stdout.contains("line 4: bad_value (sent)"))
        // A field lost or one too many would shift the values after it into other columns: the row is refused.
        #expect(result.stdout.contains("line 6: malformed_csv"), "\(result.stdout)")
        #expect(result.stdout.contains("line 7: malformed_csv"), "\(result.stdout)")
        let report = try await runPushtally(["report", "push", "p1", "--format", "json", "--database", database])
        #expect(report.stdout.contains("\"failed_unregistered\":7"))
        #expect(report.stdout.contains("\"sent\":90"))
        #expect(report.stdout.contains("\"title\":\"Hello, world\""))

        let ndjson = directory.appendingPathComponent("sends.ndjson")
        try "{\"push_id\":\"p1\",\"campaign\":\"新年促销\",\"sent\":95}\nnot json\n".write(to: ndjson, atomically: true, encoding: .utf8)
        let again = try await runPushtally(["pushes", "import", ndjson.path, "--database", database])
        #expect(again.stdout.contains("imported 1 (created 0, updated 1), rejected 1"))
        #expect(again.stdout.contains("line 2: malformed_json"))

        // Through a server: the same lines, the same outcome.
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let remote = try await runPushtally(["pushes", "import", csv.path, "--server", server.baseURL.absoluteString, "--token", server.adminToken])
        #expect(remote.status == 5)
        #expect(remote.stdout.contains("imported 2 (created 2, updated 0), rejected 4"), "\(remote.stdout)")
        #expect(remote.stdout.contains("line 4: "))
        let remoteReport = try await runPushtally(["report", "push", "p1", "--format", "json", "--database", server.databasePath])
        #expect(remoteReport.stdout.contains("\"sent\":90"))
        let remoteAgain = try await runPushtally(["pushes", "import", ndjson.path, "--server", server.baseURL.absoluteString, "--token", server.adminToken])
        #expect(remoteAgain.stdout.contains("imported 1 (created 0, updated 1), rejected 1"))
        #expect(try await server.stop() == 0)
        let missing = try await runPushtally(["pushes", "import", directory.appendingPathComponent("none.csv").path, "--database", database])
        #expect(missing.status == 3)
    }
}
