import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// `pushtally export --out`: files a warehouse loads with the schemas `export --schema` renders, read back by
/// pyarrow, DuckDB and chdb (Tests/feed/load.py), resumable, idempotent, and whole after a `kill -9`.
@Suite(.serialized) struct EventExportCLITests {
    /// The lines ``seed(_:)`` stores: six send records (one of per-device deliveries), seven client events and two
    /// FCM deliveries.
    static let seeded = 15

    /// Two pushes' send records (a batch replaced, a push moved to another campaign), receipts (one retried), a
    /// tap, a session, a conversion and FCM deliveries (one posted twice), through the server.
    static func seed(_ server: ServerProcess) async throws {
        let auth = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        let records = [
            ("PUT", "p1", #"{"campaign":"spring-セール","sent":10,"failed":{"Unregistered":2},"platform":"ios"}"#),
            ("PUT", "p2", #"{"campaign":"spring-セール","sent":10}"#),
            ("POST", "p1/sends", #"{"batch_id":"fcm","sent":4,"failed":{"UNREGISTERED":1},"platform":"android"}"#),
            ("POST", "p1/sends", #"{"batch_id":"fcm","sent":5,"platform":"android"}"#),
            ("PUT", "p2", #"{"campaign":"summer","sent":12,"platform":"android"}"#),
            // Per-device deliveries: p1 is then counted from them alone.
            ("POST", "p1/deliveries", #"[{"device_id":"a","platform":"ios","outcome":"accepted"},{"device_id":"z","platform":"ios","outcome":"Unregistered"}]"#),
        ]
        for (method, path, body) in records {
            let recorded = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/pushes/\(path)"), method: method, headers: auth, body: Data(body.utf8))
            #expect(recorded.status < 300, "\(path): \(String(decoding: recorded.body, as: UTF8.self))")
        }
        let fcm = ["i1", "i2"].map {
            #"{"message_id":"m-\#($0)","instance_id":"\#($0)","event":"MESSAGE_DELIVERED","analytics_label":"p2","sdk_platform":"ANDROID"}"#
        }.joined(separator: "\n")
        for _ in 0..<2 {
            let delivered = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/delivery/fcm"), method: "POST",
                headers: ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/x-ndjson"], body: Data(fcm.utf8))
            #expect(delivered.status == 200, "\(String(decoding: delivered.body, as: UTF8.self))")
        }
        let posts = [
            ("receipts", #"{"push_id":"p1","device_id":"a","receipt_id":"r1","platform":"ios","media":"attached","extension_ms":120}"#),
            ("receipts", #"{"push_id":"p1","device_id":"a","receipt_id":"r1","platform":"ios"}"#),
            ("receipts", #"{"push_id":"p1","device_id":"b","receipt_id":"r2","app_version":"2.1"}"#),
            ("receipts", #"{"push_id":"p2","device_id":"c","receipt_id":"r3","platform":"android"}"#),
            ("actions", #"{"push_id":"p1","device_id":"a","action":"open"}"#),
            ("sessions", #"{"device_id":"a","session_id":"s1","app":"com.example","notification_permission":"authorized"}"#),
            ("conversions", #"{"device_id":"a","event":"purchase","value":"12.34","currency":"EUR","conversion_id":"c1"}"#),
        ]
        for (route, body) in posts {
            let answer = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/\(route)"), method: "POST", headers: ["Content-Type": "application/json"],
                body: Data(body.utf8))
            #expect(answer.status < 300, "\(route): \(String(decoding: answer.body, as: UTF8.self))")
        }
    }

    /// The whole feed through `GET /v1/events`, asked again until it holds `count` events (PostgreSQL shows an
    /// event once every older transaction in the cluster has ended).
    static func feed(_ server: ServerProcess, count: Int) async throws -> String {
        while true {
            let answer = try await httpRequest(
                URL(string: server.baseURL.absoluteString + "/v1/events?limit=10000")!,
                headers: ["Authorization": "Bearer \(server.adminToken)"])
            let text = String(decoding: answer.body, as: UTF8.self)
            if text.split(separator: "\n").count >= count || answer.status != 200 { return text }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    static func export(_ arguments: [String]) async throws -> CommandResult {
        let run = try await runPushtally(["export"] + arguments)
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        return run
    }

    @Test(arguments: StoreKind.allCases) func filesLoadIntoThreeReadersWithTheRenderedSchemas(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "export-files")
        let server = store.server
        try await Self.seed(server)
        let directory = server.directory
        let reference = try await Self.feed(server, count: Self.seeded)
        try reference.write(to: directory.appendingPathComponent("feed.ndjson"), atomically: true, encoding: .utf8)
        let parquet = directory.appendingPathComponent("parquet").path
        let ndjson = directory.appendingPathComponent("ndjson").path
        // From the database, and through the server with an export token.
        _ = try await Self.export(["--out", parquet, "--format", "parquet", "--rows-per-file", "3"] + store.arguments)
        let token = try await runPushtally(["keys", "create", "--role", "export"] + store.arguments).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await Self.export(["--out", ndjson, "--rows-per-file", "4", "--server", server.baseURL.absoluteString, "--token", token])
        var spec: [String: Any] = ["reference": directory.appendingPathComponent("feed.ndjson").path, "parquet": parquet, "ndjson": ndjson]
        for dialect in ["duckdb", "clickhouse"] {
            let schema = try await Self.export(["--schema", dialect])
            let path = directory.appendingPathComponent("\(dialect).sql")
            try schema.stdout.write(to: path, atomically: true, encoding: .utf8)
            spec[dialect] = path.path
        }
        let report = try await runPushtally(["report", "pushes", "--format", "json"] + store.arguments)
        let pushes = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])["pushes"] as? [[String: Any]]
        spec["displays"] = Dictionary(uniqueKeysWithValues: try #require(pushes).compactMap { row in
            (row["push_id"] as? String).map { ($0, row["displayed_unique"] as? Int ?? -1) }
        })
        // The campaigns report, to hold the warehouse's own counts per campaign to.
        let campaignReport = try await runPushtally(["report", "campaigns", "--format", "json"] + store.arguments)
        let campaigns = try #require(
            try JSONSerialization.jsonObject(with: Data(campaignReport.stdout.utf8)) as? [String: Any])["campaigns"] as? [[String: Any]]
        spec["campaigns"] = Dictionary(uniqueKeysWithValues: try #require(campaigns).compactMap { row -> (String, [String: Any])? in
            guard let name = row["campaign"] as? String else { return nil }
            return (name, ["sent": row["sent"] ?? -1, "failed": row["failed"] ?? -1, "displayed_unique": row["displayed_unique"] ?? -1,
                           "device_delivered": row["device_delivered"] ?? -1])
        })
        #expect(campaigns?.count == 2, "\(campaignReport.stdout)")
        let specPath = directory.appendingPathComponent("spec.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specPath)
        let load = try await runProcess("/usr/bin/env", ["python3", PackageRoot.file("Tests/feed/load.py").path, specPath.path], includingErrors: true)
        #expect(load.status == 0, "\(load.output)")
        let summary = (try? JSONSerialization.jsonObject(with: Data(load.output.utf8))) as? [String: Any]
        #expect(summary?["events"] as? Int == Self.seeded && summary?["parquet_files"] as? Int == 5 && summary?["ndjson_files"] as? Int == 4, "\(load.output)")
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    @Test func aRerunAddsOnlyWhatCommittedSinceAndRefusesWhatContradictsTheDirectory() async throws {
        let store = try await StoreServer.start(.sqlite, name: "export-rerun")
        let server = store.server
        try await Self.seed(server)
        let out = server.directory.appendingPathComponent("files").path
        let manifest = URL(fileURLWithPath: out).appendingPathComponent("manifest.json")
        let metrics = server.directory.appendingPathComponent("export.prom").path
        let first = try await Self.export(["--out", out, "--rows-per-file", "5", "--metrics-file", metrics] + store.arguments)
        #expect(first.stdout.hasPrefix("wrote 3 files, \(Self.seeded) events"), "\(first.stdout)")
        let written = try Data(contentsOf: manifest)
        let again = try await Self.export(["--out", out, "--rows-per-file", "5"] + store.arguments)
        #expect(again.stdout.hasPrefix("wrote 0 files, 0 events"), "\(again.stdout)")
        #expect(try Data(contentsOf: manifest) == written, "a run with nothing new leaves the manifest as it was")
        #expect(try String(contentsOfFile: metrics, encoding: .utf8).contains(#"pushtally_export_last_success_timestamp_seconds{reader="files"} "#))

        let answer = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"{"push_id":"p2","device_id":"d","receipt_id":"later"}"#.utf8))
        #expect(answer.status < 300)
        let third = try await Self.export(["--out", out, "--rows-per-file", "5"] + store.arguments)
        #expect(third.stdout.hasPrefix("wrote 1 files, 1 events"), "\(third.stdout)")
        let files = try JSONDecoder().decode(FeedManifest.self, from: Data(contentsOf: manifest)).files
        #expect(files.map(\.name) == (1...4).map { "events-00000\($0).ndjson.gz" })

        // Another format, or a start the directory contradicts, is refused; so is --after with --output.
        for arguments in [["--format", "parquet"], ["--after", EventCursor.start.text]] {
            let refused = try await runPushtally(["export", "--out", out] + arguments + store.arguments)
            #expect(refused.status != 0 && !refused.stderr.isEmpty, "\(arguments)")
        }
        #expect(try await runPushtally(["export", "--output", "x.ndjson.gz", "--after", "e1.0"] + store.arguments).status != 0)
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    /// `kill -9` of an export part way through (many one-event files, each synced), then a rerun: every event is
    /// in exactly one listed file, and nothing the manifest does not list is left but what the rerun replaced.
    @Test func aKilledExportLosesAndRepeatsNothingAfterARerun() async throws {
        let store = try await StoreServer.start(.sqlite, name: "export-kill")
        let server = store.server
        let events = 400
        let batch = (0..<events).map { #"{"push_id":"p-kill","receipt_id":"k\#($0)"}"# }.joined(separator: "\n")
        let posted = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/x-ndjson"],
            body: Data(batch.utf8))
        #expect(posted.status < 300, "\(String(decoding: posted.body, as: UTF8.self))")
        #expect(try await server.stop() == 0)
        let out = server.directory.appendingPathComponent("killed")
        let manifest = out.appendingPathComponent("manifest.json")
        let process = ChildProcess()
        process.executableURL = try pushtallyBinary()
        process.arguments = ["export", "--out", out.path, "--rows-per-file", "1"] + store.arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once some files are listed: wherever it is then, mid-file or between a file and the manifest.
        while (try? JSONDecoder().decode(FeedManifest.self, from: Data(contentsOf: manifest)))?.files.count ?? 0 < 3 {
            try await Task.sleep(for: .milliseconds(5))
        }
        process.send(SIGKILL)
        try await blocking { process.blockUntilExit() }
        let killedAt = try JSONDecoder().decode(FeedManifest.self, from: Data(contentsOf: manifest)).files.count
        _ = try await Self.export(["--out", out.path, "--rows-per-file", "1"] + store.arguments)
        let listed = try JSONDecoder().decode(FeedManifest.self, from: Data(contentsOf: manifest))
        #expect(listed.rows == events && listed.files.count == events, "killed after \(killedAt) files")
        var receipts: [String] = []
        for file in listed.files {
            let data = try Data(contentsOf: out.appendingPathComponent(file.name))
            #expect(FeedManifest.sha256(Array(data)) == file.sha256, "\(file.name)")
            let text = try await runProcess("/usr/bin/env", ["gzip", "-dc", out.appendingPathComponent(file.name).path]).output
            receipts += try text.split(separator: "\n").map { try ExportFormat.event(line: String($0)).receipt_id ?? "" }
        }
        #expect(receipts == (0..<events).map { "k\($0)" }, "each event once, in order")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }
        #expect(Set(names) == Set(listed.files.map(\.name) + ["manifest.json"]))
        await store.cleanUp()
    }
}
