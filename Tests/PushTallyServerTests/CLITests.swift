import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.serialized) struct CLITests {
    /// Seeds a running server over HTTP and returns it (stopped) with its admin token.
    func seededServer() async throws -> ServerProcess {
        let server = try ServerProcess()
        try server.start()
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
            let cli = try runPushtally(["report", "campaigns", "--format", format, "--database", server.databasePath])
            #expect(cli.status == 0, "\(cli.stderr)")
            #expect(cli.stdout.trimmingCharacters(in: .newlines) == String(decoding: http.body, as: UTF8.self).trimmingCharacters(in: .newlines))
        }
        #expect(try server.stop() == 0)
    }

    @Test func tableFormatAndDatabaseFromTheEnvironment() async throws {
        let server = try await seededServer()
        defer { server.removeFiles() }
        #expect(try server.stop() == 0)
        let table = try runPushtally(["report", "campaigns", "--format", "table"], environment: ["PUSHTALLY_DATABASE": server.databasePath])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("campaign") == true)
        #expect(lines.contains { $0.hasPrefix("新年促销") })
        #expect(lines.count == 4)  // header, two campaigns, orphans
    }

    @Test func rateCommandPrintsTheDisplayRate() async throws {
        let server = try await seededServer()
        defer { server.removeFiles() }
        #expect(try server.stop() == 0)
        let rate = try runPushtally(["rate", "--campaign", "新年促销", "--database", server.databasePath])
        #expect(rate.status == 0)
        #expect(rate.stdout == "0.5\n")
        let missing = try runPushtally(["rate", "--campaign", "nope", "--database", server.databasePath])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("nope"))
    }

    @Test func keysCreateListRevoke() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("k.sqlite").path
        let created = try runPushtally(["keys", "create", "--role", "read", "--label", "dashboard", "--database", database])
        #expect(created.status == 0)
        let token = created.stdout.trimmingCharacters(in: .newlines)
        #expect(token.hasPrefix("pt_") && !token.contains("\n") && token.count == 80)
        let list = try runPushtally(["keys", "list", "--database", database])
        let columns = list.stdout.split(separator: "\n").first?.split(separator: "\t").map(String.init) ?? []
        #expect(columns.count == 5)
        #expect(columns[1] == "read")
        #expect(columns[2] == "active")
        #expect(!list.stdout.contains(token.suffix(64)))
        #expect(try runPushtally(["keys", "revoke", columns[0], "--database", database]).status == 0)
        #expect(try runPushtally(["keys", "list", "--database", database]).stdout.contains("\trevoked\t"))
        #expect(try runPushtally(["keys", "revoke", columns[0], "--database", database]).status == 3)
        let badRole = try runPushtally(["keys", "create", "--role", "root", "--database", database])
        #expect(badRole.status == 64)
    }
}
