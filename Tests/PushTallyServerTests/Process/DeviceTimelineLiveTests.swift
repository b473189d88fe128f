import Foundation
import PushTallyTestSupport
import Testing

/// The device timeline on a real `pushtally serve`: what its log shows of a read, and `pushtally device
/// timeline` from the database and through the server, before and after `pushtally forget`.
@Suite(.serialized) struct DeviceTimelineLiveTests {
    static let device = "install-9c2e-timeline-never-logged"

    /// Posts a display, a tap and a session of `device` (newest first) and a display of another device.
    static func seed(_ server: ServerProcess) async throws {
        let t = Int(Date().timeIntervalSince1970) - 3600
        let json = ["Content-Type": "application/json"]
        let posts: [(String, String)] = [
            ("sessions", #"{"device_id":"\#(device)","session_id":"s1","ts":\#(t + 60),"notification_permission":"denied"}"#),
            ("actions", #"{"push_id":"p1","device_id":"\#(device)","action":"open","ts":\#(t + 10)}"#),
            ("receipts", #"{"push_id":"p1","device_id":"\#(device)","ts":\#(t),"media":"failed","extension_ms":4100}"#),
            ("receipts", #"{"push_id":"p1","device_id":"someone-else","ts":\#(t + 5)}"#),
        ]
        for (route, body) in posts {
            let answer = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/\(route)"), method: "POST", headers: json, body: Data(body.utf8))
            #expect(answer.status < 300, "\(route): \(String(decoding: answer.body, as: UTF8.self))")
        }
    }

    static func timelineURL(_ server: ServerProcess, query: String = "") -> URL {
        URL(string: server.baseURL.absoluteString + "/v1/devices/\(device)/timeline" + query)!
    }

    @Test(arguments: StoreKind.allCases) func theLogShowsTheTemplateAndTheTokenNeverTheDevice(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "timeline-log", extraArguments: ["--log-level", "trace"])
        let server = store.server
        try await Self.seed(server)
        let admin = ["Authorization": "Bearer \(server.adminToken)"]
        let read = try await runPushtally(["keys", "create", "--role", "read"] + store.arguments)
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await httpRequest(Self.timelineURL(server), headers: admin).status == 200)
        // Refusals go to the error log: a bad limit, a bad cursor, a token of the wrong role, none at all.
        #expect(try await httpRequest(Self.timelineURL(server, query: "?limit=0"), headers: admin).status == 400)
        #expect(try await httpRequest(Self.timelineURL(server, query: "?after=x"), headers: admin).status == 400)
        #expect(try await httpRequest(Self.timelineURL(server), headers: ["Authorization": "Bearer \(read)"]).status == 403)
        #expect(try await httpRequest(Self.timelineURL(server)).status == 401)
        #expect(try await server.stop() == 0)
        let log = server.log
        await store.cleanUp()
        #expect(!log.contains(Self.device), "the raw device id reached the log:\n\(log)")
        #expect(!log.contains("someone-else"))
        #expect(log.contains("path=/v1/devices/:device_id/timeline"), "\(log)")
        #expect(log.components(separatedBy: "rejected").count - 1 >= 4, "each refusal is logged")
        // The read is logged with the admin token's id, never its secret.
        let tokenID = try #require(server.adminToken.split(separator: "_").dropFirst().first.map(String.init))
        let readLine = try #require(log.split(separator: "\n").first { $0.contains("device timeline read") })
        #expect(readLine.contains("token_id=\(tokenID)"), "\(readLine)")
        #expect(readLine.contains("route=/v1/devices/:device_id/timeline"))
        #expect(!log.contains(server.adminToken) && !log.contains(read))
    }

    @Test(arguments: StoreKind.allCases) func theCLIReadsItFromTheFileAndTheServerUntilForgotten(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "timeline-cli")
        let server = store.server
        try await Self.seed(server)
        let remote = ["--server", server.baseURL.absoluteString, "--token", server.adminToken]
        let http = try await httpRequest(Self.timelineURL(server), headers: ["Authorization": "Bearer \(server.adminToken)"])
        let served = String(decoding: http.body, as: UTF8.self)
        for source in [store.arguments, remote] {
            let json = try await runPushtally(["device", "timeline", Self.device, "--format", "json"] + source)
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout == served + "\n", "the file and the server answer alike")
            let table = try await runPushtally(["device", "timeline", Self.device] + source)
            #expect(table.status == 0, "\(table.stderr)")
            let lines = table.stdout.split(separator: "\n")
            #expect(lines.count == 3, "\(table.stdout)")
            #expect(lines.map { $0.split(separator: "\t")[1] } == ["display", "action", "session"])
            // The media outcome, extension time and notification setting are the last three columns.
            let last = lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).suffix(3).joined(separator: " ") }
            #expect(last == ["failed 4100 ", "  ", "  denied"], "\(table.stdout)")
            // Paged: the cursor for the rest is printed on stderr, and --after reads on from it.
            let first = try await runPushtally(["device", "timeline", Self.device, "--limit", "2", "--format", "json"] + source)
            let next = try #require(first.stdout.firstMatch(of: /"next":"(t1\.[0-9a-f]{32})"/)?.1)
            let paged = try await runPushtally(["device", "timeline", Self.device, "--limit", "2"] + source)
            #expect(paged.stderr.contains("--after \(next)"), "\(paged.stderr)")
            let rest = try await runPushtally(["device", "timeline", Self.device, "--after", String(next), "--format", "json"] + source)
            #expect(rest.stdout.contains(#""type":"session""#) && !rest.stdout.contains("\"next\""), "\(rest.stdout)")
            // Bad arguments are usage errors (64), naming what was wrong.
            let badLimit = try await runPushtally(["device", "timeline", Self.device, "--limit", "0"] + source)
            #expect(badLimit.status == 64 && badLimit.stderr.contains("limit"), "\(badLimit.stderr)")
            let badCursor = try await runPushtally(["device", "timeline", Self.device, "--after", "nope"] + source)
            #expect(badCursor.status == 64 && badCursor.stderr.contains("after"), "\(badCursor.stderr)")
            // No device can have sent an id past ingest's 128 bytes: asking for one is a mistake, not an empty timeline.
            let longID = try await runPushtally(["device", "timeline", String(repeating: "d", count: 50_000)] + source)
            #expect(longID.status == 64 && longID.stderr.contains("device_id is longer than 128 bytes"), "\(longID.status) \(longID.stderr.prefix(300))")
        }
        // A read token is refused through the server.
        let read = try await runPushtally(["keys", "create", "--role", "read"] + store.arguments).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let refused = try await runPushtally(
            ["device", "timeline", Self.device, "--server", server.baseURL.absoluteString, "--token", read])
        #expect(refused.status == 4 && refused.stderr.contains("403"), "\(refused.status) \(refused.stderr)")
        let forgot = try await runPushtally(["forget", "--device", Self.device] + store.arguments)
        #expect(forgot.status == 0, "\(forgot.stderr)")
        for source in [store.arguments, remote] {
            let after = try await runPushtally(["device", "timeline", Self.device, "--format", "json"] + source)
            #expect(after.stdout == "{\"events\":[]}\n", "\(after.stdout)")
        }
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }
}
