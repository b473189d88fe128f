import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// `pushtally webhooks ...` and `pushtally alerts ...`, the real binary, on a database file and through a server.
@Suite(.serialized) struct WebhookCLITests {
    /// A temporary directory with a database path in it, removed by the caller.
    func scratch(_ name: String) throws -> (directory: URL, database: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent("w.sqlite").path)
    }

    func object(_ text: String) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(parsed as? [String: Any], "\(text)")
    }

    /// Tab-separated output into a pipe: one row a line.
    func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func webhooksOnTheDatabase() async throws {
        let (directory, database) = try scratch("whcli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = ["--database", database]
        // The SSRF rule holds here too: a loopback receiver needs the flag, and nothing is stored without it.
        let refused = try await runPushtally(["webhooks", "create", "--url", "http://127.0.0.1:9/hook", "--event", "receipt.displayed"] + db)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("127.0.0.1 is loopback (127.0.0.0/8), not a public address"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-private-webhooks"))
        #expect(try await runPushtally(["webhooks", "list"] + db).stdout.isEmpty)

        let created = try await runPushtally(
            ["webhooks", "create", "--url", "http://127.0.0.1:9/hook", "--event", "receipt.displayed", "--event", "alert.firing",
             "--allow-private-webhooks"] + db)
        #expect(created.status == 0, "\(created.stderr)")
        let fields = rows(created.stdout)
        #expect(fields.count == 1 && fields[0].count == 2)
        let (id, secret) = (fields[0][0], fields[0][1])
        #expect(id.hasPrefix("wh_") && id.count == 31)
        #expect(secret.hasPrefix("whsec_"))
        #expect(Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)

        // A public address literal needs no flag and no DNS; --json prints the API's answer, secret included.
        let second = try await runPushtally(
            ["webhooks", "create", "--url", "https://93.184.216.34/pushtally", "--event", "push.registered", "--event", "alert.resolved",
             "--description", "看板 feed", "--json"] + db)
        #expect(second.status == 0, "\(second.stderr)")
        let answer = try object(second.stdout)
        #expect(answer["url"] as? String == "https://93.184.216.34/pushtally")
        #expect(answer["events"] as? [String] == ["push.registered", "alert.resolved"])
        #expect(answer["description"] as? String == "看板 feed")
        #expect(answer["status"] as? String == "active")
        #expect((answer["secret"] as? String)?.hasPrefix("whsec_") == true)
        #expect(Set(answer.keys) == ["id", "url", "events", "description", "status", "created_at", "secret"])

        let list = try await runPushtally(["webhooks", "list"] + db)
        #expect(list.status == 0)
        let listed = rows(list.stdout)
        try #require(listed.count == 2 && listed.allSatisfy { $0.count == 6 }, "\(list.stdout)")
        #expect(listed[0] == [id, "active", "receipt.displayed,alert.firing", "http://127.0.0.1:9/hook", listed[0][4], ""])
        #expect(listed[1][5] == "看板 feed")
        #expect(!list.stdout.contains("whsec_"))
        // On a terminal: labelled lines at creation, and a table under a header.
        let shown = try await TerminalOutputTests.onTerminal(
            ["webhooks", "create", "--url", "https://93.184.216.34/tty", "--event", "alert.firing"] + db, columns: 200, environment: ["NO_COLOR": "1"])
        #expect(shown.contains("created webhook wh_") && shown.contains("-> https://93.184.216.34/tty\nsecret whsec_"), "\(shown)")
        let drawn = try await TerminalOutputTests.onTerminal(["webhooks", "list"] + db, columns: 200, environment: ["NO_COLOR": "1"])
        let lines = drawn.split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines[0].hasPrefix("id  ") && lines[0].contains("status  events"), "\(drawn)")
        #expect(lines.count == 4 && lines[1].hasPrefix(id + "  active"))
        #expect(lines.count == 4 && lines[1].hasSuffix("–"))
        #expect(try await runPushtally(["webhooks", "delete", String(lines.last?.prefix { $0 != " " } ?? "")] + db).status == 0)
        let listJSON = try object(try await runPushtally(["webhooks", "list", "--json"] + db).stdout)
        let endpoints = try #require(listJSON["webhooks"] as? [[String: Any]])
        #expect(endpoints.count == 2 && endpoints.allSatisfy { $0["secret"] == nil })

        // Nothing was sent yet: an empty listing; bad filters and unknown ids are refused.
        let deliveries = try await runPushtally(["webhooks", "deliveries", id, "--status", "pending", "--limit", "5"] + db)
        #expect(deliveries.status == 0 && deliveries.stdout.isEmpty, "\(deliveries.stderr)")
        #expect(try await runPushtally(["webhooks", "deliveries", id, "--json"] + db).stdout == "{\"deliveries\":[]}\n")
        let badStatus = try await runPushtally(["webhooks", "deliveries", id, "--status", "lost"] + db)
        #expect(badStatus.status == 64 && badStatus.stderr.contains("status must be pending, delivered or failed"))
        #expect(try await runPushtally(["webhooks", "deliveries", id, "--limit", "0"] + db).status == 64)
        #expect(try await runPushtally(["webhooks", "deliveries", "wh_nope"] + db).status == 3)

        let badEvent = try await runPushtally(["webhooks", "create", "--url", "https://93.184.216.34/x", "--event", "receipt.shown"] + db)
        #expect(badEvent.status == 64 && badEvent.stderr.contains("events must name event types among"), "\(badEvent.stderr)")
        let noEvent = try await runPushtally(["webhooks", "create", "--url", "https://93.184.216.34/x"] + db)
        #expect(noEvent.status == 64 && noEvent.stderr.contains("events must name at least one"), "\(noEvent.stderr)")
        let badScheme = try await runPushtally(["webhooks", "create", "--url", "ftp://93.184.216.34/x", "--event", "alert.firing"] + db)
        #expect(badScheme.status == 64 && badScheme.stderr.contains("url must use http or https, not ftp"))
        // A raw space or line break, and a port no socket has, are refused rather than stored re-encoded or as port 80.
        for (url, message) in [
            ("https://93.184.216.34/a b", "url holds a space; percent-encode it (a space is %20)"),
            ("https://93.184.216.34/a\r\nX-Injected: 1", "url holds a carriage return (CR)"),
            ("https://93.184.216.34:99999999999999999999/x", "url has the port 99999999999999999999; a port is a number from 1 to 65535"),
        ] {
            let refused = try await runPushtally(["webhooks", "create", "--url", url, "--event", "alert.firing"] + db)
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(url): \(refused.stderr)")
        }

        let deleted = try await runPushtally(["webhooks", "delete", id] + db)
        #expect(deleted.status == 0 && deleted.stdout == "deleted \(id)\n")
        #expect(rows(try await runPushtally(["webhooks", "list"] + db).stdout).count == 1)
        let again = try await runPushtally(["webhooks", "delete", id] + db)
        #expect(again.status == 3 && again.stderr.contains("no webhook \(id)"))
        // A mistyped database is "not found" for listings, as for every other reading command.
        #expect(try await runPushtally(["webhooks", "list", "--database", database + "-typo"]).status == 3)
    }

    @Test func alertsOnTheDatabase() async throws {
        let (directory, database) = try scratch("alcli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = ["--database", database]
        let rule = ["--kind", "receipts_stopped", "--window", "30m", "--threshold", "0.2", "--min-sent", "100"]
        let created = try await runPushtally(["alerts", "create", "--name", "receipts stopped"] + rule + db)
        #expect(created.status == 0, "\(created.stderr)")
        let id = created.stdout.trimmingCharacters(in: .newlines)
        #expect(id.hasPrefix("al_") && !id.contains("\n"))
        let scoped = try await runPushtally(
            ["alerts", "create", "--name", "新年 drop", "--kind", "display_rate_drop", "--window", "1h", "--threshold", "0.5",
             "--min-sent", "10", "--grace", "10m", "--campaign", "新年促销", "--app", "com.example.app", "--json"] + db)
        #expect(scoped.status == 0, "\(scoped.stderr)")
        let answer = try object(scoped.stdout)
        #expect(answer["kind"] as? String == "display_rate_drop")
        #expect(answer["window"] as? String == "1h" && answer["grace"] as? String == "10m")
        #expect(answer["threshold"] as? Double == 0.5 && answer["min_sent"] as? Int == 10)
        #expect(answer["campaign"] as? String == "新年促销" && answer["app"] as? String == "com.example.app")
        #expect(answer["state"] as? String == "ok")

        let list = rows(try await runPushtally(["alerts", "list"] + db).stdout)
        try #require(list.count == 2 && list.allSatisfy { $0.count == 11 }, "\(list)")
        #expect(list[0] == [id, "receipts stopped", "receipts_stopped", "ok", "", list[0][5], "30m", "0.2", "100", "5m", ""])
        #expect(list[1][10] == "campaign=新年促销 app=com.example.app")
        // A terminal's table keeps its columns aligned past CJK names (two columns each).
        let drawn = try await TerminalOutputTests.onTerminal(["alerts", "list"] + db, columns: 200, environment: ["NO_COLOR": "1"])
        let lines = drawn.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(drawn)")
        let kindColumn = [("kind", 0), ("receipts_stopped", 1), ("display_rate_drop", 2)].map { word, line in
            HumanTableRenderer.displayWidth(String(lines[line][..<lines[line].range(of: word)!.lowerBound]))
        }
        #expect(Set(kindColumn).count == 1, "\(drawn)")
        #expect(lines[1].contains("ok     –"), "\(drawn)")
        let listJSON = try object(try await runPushtally(["alerts", "list", "--json"] + db).stdout)
        #expect((listJSON["alerts"] as? [[String: Any]])?.map { $0["id"] as? String } == [id, answer["id"] as? String])

        let taken = try await runPushtally(["alerts", "create", "--name", "receipts stopped"] + rule + db)
        #expect(taken.status == 64 && taken.stderr.contains("an alert named receipts stopped exists"), "\(taken.stderr)")
        let unknownKind = try await runPushtally(
            ["alerts", "create", "--name", "x", "--kind", "receipts_gone", "--window", "30m", "--threshold", "0.2", "--min-sent", "1"] + db)
        #expect(unknownKind.status == 64)
        #expect(unknownKind.stderr.contains("kind must be one of receipts_stopped, display_rate_drop, version_not_posting"))
        let badWindow = try await runPushtally(
            ["alerts", "create", "--name", "x", "--kind", "receipts_stopped", "--window", "10s", "--threshold", "0.2", "--min-sent", "1"] + db)
        #expect(badWindow.status == 64 && badWindow.stderr.contains("window must be from 1m to 90d"))
        // Each kind's threshold refusal names its own range.
        for (kind, message) in [
            ("receipts_stopped", "threshold for receipts_stopped is a display rate: above 0 and at most 1"),
            ("display_rate_drop", "threshold for display_rate_drop is a multiple of the 7 days before's display rate: above 0 and at most 100"),
            ("version_not_posting", "threshold for version_not_posting is a multiple of a version's share of opens: above 0 and at most 100"),
        ] {
            let huge = try await runPushtally(
                ["alerts", "create", "--name", "x", "--kind", kind, "--window", "30m", "--threshold", "1e300", "--min-sent", "1"] + db)
            #expect(huge.status == 64 && huge.stderr.contains(message), "\(kind): \(huge.stderr)")
        }
        #expect(rows(try await runPushtally(["alerts", "list"] + db).stdout).count == 2)

        #expect(try await runPushtally(["alerts", "delete", id] + db).stdout == "deleted \(id)\n")
        let again = try await runPushtally(["alerts", "delete", id] + db)
        #expect(again.status == 3 && again.stderr.contains("no alert \(id)"))
        #expect(rows(try await runPushtally(["alerts", "list"] + db).stdout).count == 1)
    }
}

/// The same commands with `--server`: the typed client, the server's checks, and the same output as the file.
@Suite(.serialized) struct WebhookCLIServerTests {
    @Test func theServerDecidesAndItsRefusalsAreExitCodes() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let remote = ["--server", server.baseURL.absoluteString, "--token", server.adminToken]
        let loopback = ["webhooks", "create", "--url", "http://127.0.0.1:9/hook", "--event", "receipt.displayed"]
        let refused = try await runPushtally(loopback + remote)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("server answered 400: 127.0.0.1 is loopback (127.0.0.0/8)"), "\(refused.stderr)")
        // The flag is the server's to give: asking for it through a server is a usage error, not a bypass.
        let flagged = try await runPushtally(loopback + ["--allow-private-webhooks"] + remote)
        #expect(flagged.status == 64 && flagged.stderr.contains("a server decides with serve --allow-private-webhooks"))
        #expect(try await runPushtally(["webhooks", "list"] + remote).stdout.isEmpty)

        let unknownKind = try await runPushtally(
            ["alerts", "create", "--name", "x", "--kind", "receipts_gone", "--window", "30m", "--threshold", "0.2", "--min-sent", "1"] + remote)
        #expect(unknownKind.status == 64 && unknownKind.stderr.contains("kind must be one of"), "\(unknownKind.stderr)")
        #expect(try await runPushtally(["webhooks", "delete", "wh_nope"] + remote).status == 3)
        #expect(try await runPushtally(["alerts", "delete", "al_nope"] + remote).status == 3)
        #expect(try await runPushtally(["webhooks", "deliveries", "wh_nope"] + remote).status == 3)

        // Alerts are readable with a read token; webhooks are admin only (403: exit 4).
        let read = try await runPushtally(["keys", "create", "--role", "read", "--database", server.databasePath]).stdout
            .trimmingCharacters(in: .newlines)
        let asReader = ["--server", server.baseURL.absoluteString, "--token", read]
        #expect(try await runPushtally(["alerts", "list"] + asReader).status == 0)
        let forbidden = try await runPushtally(["webhooks", "list"] + asReader)
        #expect(forbidden.status == 4 && forbidden.stderr.contains("403"))
        #expect(try await server.stop() == 0)
    }

    @Test func deliveriesAndAlertsThroughAServerEqualTheFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-whsrv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secretFile = directory.appendingPathComponent("secret")
        let logFile = directory.appendingPathComponent("received.ndjson")
        let portFile = directory.appendingPathComponent("port")
        let receiver = ChildProcess()
        receiver.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = PackageRoot.file("Tests/webhooks/receiver.py")
        receiver.arguments = ["python3", script.path, secretFile.path, logFile.path, portFile.path]
        try receiver.run()
        // SIGKILL: the test process's threads may block SIGTERM, and a spawned child inherits that mask.
        defer { receiver.send(SIGKILL) }
        let receiverPort = try await eventually("the receiver's port") {
            (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }

        let server = try ServerProcess(extraArguments: ["--allow-private-webhooks", "--alert-interval", "3600"])
        defer { server.removeFiles() }
        try await server.start()
        let remote = ["--server", server.baseURL.absoluteString, "--token", server.adminToken]
        let local = ["--database", server.databasePath]
        let created = try await runPushtally(
            ["webhooks", "create", "--url", "http://127.0.0.1:\(receiverPort)/hook", "--event", "receipt.displayed"] + remote)
        #expect(created.status == 0, "\(created.stderr)")
        let fields = created.stdout.trimmingCharacters(in: .newlines).split(separator: "\t").map(String.init)
        try #require(fields.count == 2)
        try fields[1].write(to: secretFile, atomically: true, encoding: .utf8)

        let receipt = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"{"push_id":"p1","device_id":"d1","receipt_id":"r1"}"#.utf8))
        #expect(receipt.status == 204)
        let delivered = try await eventually("a delivered delivery") { () -> [String]? in
            let listing = try await runPushtally(["webhooks", "deliveries", fields[0], "--status", "delivered"] + remote)
            return listing.stdout.split(separator: "\n").first.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        }
        try #require(delivered.count == 9, "\(delivered)")
        #expect(Array(delivered[1...5]) == ["receipt.displayed", "delivered", "1", "200", ""])
        #expect(delivered[7] == "" && !delivered[8].isEmpty)
        let log = try String(contentsOf: logFile, encoding: .utf8).split(separator: "\n").map { line in
            try object(String(line))
        }
        #expect(log.count == 1 && log[0]["verified"] as? Bool == true && log[0]["id"] as? String == delivered[0])

        let alert = ["alerts", "create", "--name", "stopped", "--kind", "receipts_stopped", "--window", "30m", "--threshold", "0.2",
                     "--min-sent", "100", "--grace", "5m"]
        let alertID = try await runPushtally(alert + remote).stdout.trimmingCharacters(in: .newlines)
        #expect(alertID.hasPrefix("al_"))
        let taken = try await runPushtally(alert + remote)
        #expect(taken.status == 64 && taken.stderr.contains("409"), "\(taken.stderr)")

        // The file and the server answer with the same bytes, for --json and the tables alike.
        for arguments in [
            ["webhooks", "list", "--json"], ["webhooks", "list"], ["webhooks", "deliveries", fields[0], "--json"],
            ["webhooks", "deliveries", fields[0]], ["alerts", "list", "--json"], ["alerts", "list"],
        ] {
            let fromServer = try await runPushtally(arguments + remote)
            let fromFile = try await runPushtally(arguments + local)
            #expect(fromServer.status == 0 && fromFile.status == 0, "\(arguments): \(fromServer.stderr) \(fromFile.stderr)")
            #expect(fromServer.stdout == fromFile.stdout, "\(arguments)")
            #expect(!fromServer.stdout.isEmpty)
        }

        #expect(try await runPushtally(["alerts", "delete", alertID] + remote).stdout == "deleted \(alertID)\n")
        #expect(try await runPushtally(["webhooks", "delete", fields[0]] + remote).stdout == "deleted \(fields[0])\n")
        #expect(try await runPushtally(["webhooks", "delete", fields[0]] + remote).status == 3)
        #expect(try await runPushtally(["alerts", "list"] + local).stdout.isEmpty)
        #expect(try await server.stop() == 0)
    }

    func object(_ text: String) throws -> [String: Any] {
        try WebhookCLITests().object(text)
    }

    /// Polls `value` every 100 ms until it is non-nil, for at most 30 s.
    func eventually<T>(_ what: String, _ value: () async throws -> T?) async throws -> T {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let found = try await value() { return found }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("gave up waiting for \(what)")
    }
}
