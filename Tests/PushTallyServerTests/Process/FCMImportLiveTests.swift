import Foundation
import PushTallyTestSupport
import Testing

/// FCM's delivery data through the real binary: `pushtally import fcm` on the store's file and through
/// `--server`, and `POST /v1/delivery/fcm` gzip-encoded, on both stores. The figures the reports show equal a
/// recount of the export, and again after each re-import; a file with a broken row stores nothing.
@Suite(.serialized) struct FCMImportLiveTests {
    static func json(_ data: Data) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    /// The rows of a report fetched as JSON.
    static func rows(_ server: ServerProcess, _ path: String, key: String) async throws -> [[String: Any]] {
        let answer = try await httpRequest(
            URL(string: server.baseURL.absoluteString + path)!, headers: ["Authorization": "Bearer \(server.adminToken)"])
        #expect(answer.status == 200, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
        return try json(answer.body)[key] as! [[String: Any]]
    }

    static func summaryLine(_ counts: FCMExportFixture.Counts, stored: Int? = nil) -> String {
        let stored = stored ?? counts.stored
        let duplicates = counts.rows - stored
        let fresh = stored == counts.stored
        return "rows \(counts.rows), stored \(stored), duplicates \(duplicates), orphans \(fresh ? counts.orphans : 0), unlabelled \(fresh ? counts.unlabelled : 0)"
    }

    /// The reports' FCM figures against the recount: the pushes, and the campaign split by platform.
    static func expectFigures(_ server: ServerProcess, _ counts: FCMExportFixture.Counts) async throws {
        for label in ["fcm-1", "fcm-2", "fcm-ghost"] {
            let push = try #require(try await rows(server, "/v1/reports/pushes/\(label)", key: "pushes").first)
            #expect(push["device_delivered"] as? Int == Int(counts.count(label, "MESSAGE_DELIVERED")), "\(label)")
            #expect(push["fcm_accepted"] as? Int == Int(counts.count(label, "MESSAGE_ACCEPTED")), "\(label)")
            #expect((push["fcm_failed_reasons"] as? [String: Int]) == counts.errors(label).mapValues(Int.init), "\(label)")
        }
        let split = try await rows(server, "/v1/reports/campaigns?by=platform", key: "campaigns")
        let android = try #require(split.first { $0["campaign"] as? String == "android-sale" && $0["platform"] as? String == "android" })
        let delivered = counts.count("fcm-1", "MESSAGE_DELIVERED", platform: "android") + counts.count("fcm-2", "MESSAGE_DELIVERED", platform: "android")
        #expect(android["device_delivered"] as? Int == Int(delivered))
        #expect(android["displayed_of_delivered"] as? Double == 2.0 / Double(delivered))
        #expect(android["display_rate"] as? Double == 2.0 / 8)
        let orphan = try #require(try await rows(server, "/v1/reports/campaigns", key: "campaigns").first { $0["orphan"] as? Bool == true })
        #expect(orphan["device_delivered"] as? Int == Int(counts.count("fcm-ghost", "MESSAGE_DELIVERED")))
    }

    @Test(arguments: StoreKind.allCases) func importedFromTheFileTheServerAndHTTPCountOnce(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "fcm-import")
        let server = store.server
        try await FCMExportFixture.sendAndDisplay(on: server)

        let file = server.directory.appendingPathComponent("fcm-export.json")
        let broken = server.directory.appendingPathComponent("fcm-broken.json")
        try Data(FCMExportFixture.text.utf8).write(to: file)
        try Data(FCMExportFixture.broken.utf8).write(to: broken)
        let counts = try FCMExportFixture.recount(FCMExportFixture.text)
        let remote = ["--server", server.baseURL.absoluteString, "--token", server.adminToken]

        // A broken row refuses its file, over HTTP and the CLI alike, and nothing of it is stored.
        let refused = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/delivery/fcm"), method: "POST",
            headers: ["Content-Type": "application/x-ndjson", "Authorization": "Bearer \(server.adminToken)"],
            body: Data(FCMExportFixture.broken.utf8))
        #expect(refused.status == 400)
        let error = try Self.json(refused.body)
        #expect(error["line"] as? Int == FCMExportFixture.brokenLine && error["error"] as? String == "malformed_json", "\(error)")
        for arguments in [store.arguments, remote] {
            let cli = try await runPushtally(["import", "fcm", broken.path] + arguments)
            #expect(cli.status == 5 && cli.stdout.contains("line \(FCMExportFixture.brokenLine)"), "\(cli.stdout) \(cli.stderr)")
        }
        let none = try await Self.rows(server, "/v1/reports/pushes/fcm-1", key: "pushes")
        #expect(none.first?["device_delivered"] as? Int == 0 && none.first?["fcm_accepted"] as? Int == 0)

        // The file into the database, then again through the server, then posted gzip-encoded.
        let local = try await runPushtally(["import", "fcm", file.path] + store.arguments)
        #expect(local.status == 0 && local.stdout == "\(file.path): \(Self.summaryLine(counts))\n", "\(local.stdout) \(local.stderr)")
        try await Self.expectFigures(server, counts)
        let viaServer = try await runPushtally(["import", "fcm", file.path] + remote)
        #expect(viaServer.status == 0 && viaServer.stdout == "\(file.path): \(Self.summaryLine(counts, stored: 0))\n", "\(viaServer.stdout) \(viaServer.stderr)")
        try await Self.expectFigures(server, counts)
        let gzip = try await runProcess("/bin/sh", ["-c", "gzip -c '\(file.path)' > '\(file.path).gz' && echo ok"])
        #expect(gzip.output == "ok\n")
        let posted = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/delivery/fcm"), method: "POST",
            headers: ["Content-Type": "application/x-ndjson", "Content-Encoding": "gzip", "Authorization": "Bearer \(server.adminToken)"],
            body: try Data(contentsOf: URL(fileURLWithPath: file.path + ".gz")))
        #expect(posted.status == 200)
        #expect(try Self.json(posted.body)["duplicates"] as? Int == counts.rows)
        try await Self.expectFigures(server, counts)

        // A read token may not import; a row with an unknown event is refused naming its field and line.
        let read = try await runPushtally(["keys", "create", "--role", "read", "--label", "r"] + store.arguments)
        let readToken = try #require(read.stdout.firstMatch(of: /pt_\S+/).map { String($0.0) })
        let forbidden = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/delivery/fcm"), method: "POST",
            headers: ["Authorization": "Bearer \(readToken)"], body: Data(FCMExportFixture.text.utf8))
        #expect(forbidden.status == 403)
        let badEvent = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/delivery/fcm"), method: "POST",
            headers: ["Content-Type": "application/x-ndjson", "Authorization": "Bearer \(server.adminToken)"],
            body: Data((FCMExportFixture.lines[0] + "\n" + #"{"message_id":"x","event":"MESSAGE_SENT"}"#).utf8))
        let refusal = try Self.json(badEvent.body)
        #expect(badEvent.status == 400 && refusal["field"] as? String == "event" && refusal["line"] as? Int == 2, "\(refusal)")

        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }
}
