import Foundation
import PushTallyTestSupport
import Testing

/// `GET /v1/events` on a real `pushtally serve`, read by clients nobody here wrote: pages resumed by cursor with
/// curl, a following stream with Python's urllib (plain and gzip, inflated as it arrives), and a shutdown that
/// ends the stream whole.
@Suite(.serialized) struct EventFeedLiveTests {
    static func post(_ server: ServerProcess, _ route: String, _ body: String) async throws {
        let answer = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/\(route)"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(body.utf8))
        #expect(answer.status < 300, "\(route): \(String(decoding: answer.body, as: UTF8.self))")
    }

    /// `curl` with its defaults but `-s` and the token: the status, the `PushTally-Cursor` field and the body.
    static func curl(_ server: ServerProcess, _ query: String, token: String, extra: [String] = []) async throws
        -> (status: Int, cursor: String?, body: String)
    {
        let run = try await runProcess(
            "/usr/bin/env",
            ["curl", "-sS", "-D", "-", "-H", "Authorization: Bearer \(token)"] + extra + [server.baseURL.absoluteString + "/v1/events" + query])
        let (head, body) = try #require(run.output.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init).twoParts)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let cursor = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("pushtally-cursor:") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) }
        return (status, cursor, body)
    }

    static func lines(_ body: String) throws -> [[String: Any]] {
        try body.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// The page after `after`, asked again until it holds `count` events: PostgreSQL shows an event once every
    /// older transaction in the cluster has ended, and other tests' transactions only delay it.
    static func page(_ server: ServerProcess, after: String?, limit: Int, count: Int, token: String) async throws
        -> (cursor: String?, events: [[String: Any]])
    {
        while true {
            let answer = try await curl(server, "?limit=\(limit)" + (after.map { "&after=\($0)" } ?? ""), token: token)
            #expect(answer.status == 200, "\(answer.body)")
            let events = try lines(answer.body)
            if events.count >= count || answer.status != 200 { return (answer.cursor, events) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test(arguments: StoreKind.allCases) func pagesResumeByCursorForExportTokensOnly(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "feed-pages")
        let server = store.server
        for n in 1...3 { try await Self.post(server, "receipts", #"{"push_id":"p-feed","receipt_id":"r\#(n)","device_id":"d"}"#) }
        try await Self.post(server, "sessions", #"{"device_id":"d","session_id":"s1"}"#)
        let export = try await runPushtally(["keys", "create", "--role", "export", "--label", "warehouse"] + store.arguments)
        #expect(export.status == 0, "\(export.stderr)")
        let token = export.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let read = try await runPushtally(["keys", "create", "--role", "read"] + store.arguments).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)

        let first = try await Self.page(server, after: nil, limit: 3, count: 3, token: token)
        #expect(first.events.map { $0["receipt_id"] as? String } == ["r1", "r2", "r3"])
        #expect(first.events.map { $0["type"] as? String } == ["receipt", "receipt", "receipt"])
        #expect(first.cursor == first.events.last?["cursor"] as? String, "the page's end is its last line's cursor")
        let rest = try await Self.page(server, after: first.cursor, limit: 3, count: 1, token: token)
        #expect(rest.events.map { $0["type"] as? String } == ["session"])
        let ids = (first.events + rest.events).compactMap { $0["event_id"] as? String }
        #expect(Set(ids).count == 4)
        // Nothing after the end: the page is empty and its cursor is the one asked after.
        let end = try await Self.curl(server, "?after=\(rest.cursor ?? "")", token: token)
        #expect(end.status == 200 && end.body.isEmpty && end.cursor == rest.cursor)
        // An admin token reads it too, gzip when asked; every other role is refused, and no token at all.
        let gzip = try await Self.curl(server, "?limit=3", token: server.adminToken, extra: ["--compressed"])
        #expect(try Self.lines(gzip.body).map { $0["event_id"] as? String } == Array(ids.prefix(3)))
        #expect(try await Self.curl(server, "", token: read).status == 403)
        #expect(try await httpRequest(server.baseURL.appendingPathComponent("v1/events")).status == 401)
        // What is not a cursor, a limit or a flag is a 400 naming it.
        for (query, field) in [("?after=t1.0", "after"), ("?limit=0", "limit"), ("?limit=10001", "limit"), ("?follow=yes", "follow"),
                               ("?heartbeat=0", "heartbeat"), ("?since=1", "since")] {
            let refused = try await Self.curl(server, query, token: token)
            #expect(refused.status == 400, "\(query)")
            #expect(refused.body.contains(#""field":"\#(field)""#), "\(query): \(refused.body)")
        }
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    @Test(arguments: [(StoreKind.sqlite, "plain"), (.sqlite, "gzip"), (.postgres, "plain")])
    func aFollowingReaderGetsEventsAsTheyCommitAndHeartbeatsBetween(kind: StoreKind, encoding: String) async throws {
        let store = try await StoreServer.start(kind, name: "feed-follow")
        let server = store.server
        try await Self.post(server, "receipts", #"{"push_id":"p-follow","receipt_id":"before"}"#)
        let run = try await runProcess(
            "/usr/bin/env",
            ["python3", PackageRoot.file("Tests/feed/follow.py").path, server.baseURL.absoluteString, server.adminToken, "events",
             encoding, "after-1", "after-2"], includingErrors: true)
        #expect(run.status == 0, "\(run.output)")
        let result = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
        let lines = try #require(result["lines"] as? [[String: Any]])
        #expect(result["encoding"] as? String == (encoding == "gzip" ? "gzip" : nil))
        let receipts = lines.compactMap { $0["receipt_id"] as? String }
        #expect(receipts == ["before", "after-1", "after-2"], "each once, in commit order: \(lines)")
        let heartbeat = try #require(lines.first { $0["heartbeat"] != nil })
        #expect((heartbeat["cursor"] as? String)?.hasPrefix("e1.") == true)
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    /// A quiet stream outlives the server's idle timeout: it writes heartbeats by half of it, whatever the reader
    /// asked, so the connection is never closed as idle under it.
    @Test func aQuietStreamOutlivesTheIdleTimeout() async throws {
        let server = try ServerProcess(extraArguments: ["--idle-timeout", "2"])
        defer { server.removeFiles() }
        try await server.start()
        let run = try await runProcess(
            "/usr/bin/env",
            ["python3", PackageRoot.file("Tests/feed/follow.py").path, server.baseURL.absoluteString, server.adminToken, "heartbeats",
             "4", "300"], includingErrors: true)
        let result = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
        #expect(result["ended"] as? String == "read", "four heartbeats, two seconds past the idle timeout: \(run.output)")
        #expect(try await server.stop() == 0)
    }

    @Test func aShutdownEndsAFollowingStreamWhole() async throws {
        let store = try await StoreServer.start(.sqlite, name: "feed-shutdown")
        let server = store.server
        let ready = server.directory.appendingPathComponent("following").path
        async let reader = runProcess(
            "/usr/bin/env",
            ["python3", PackageRoot.file("Tests/feed/follow.py").path, server.baseURL.absoluteString, server.adminToken, "shutdown", ready],
            includingErrors: true)
        while !FileManager.default.fileExists(atPath: ready) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(try await server.stop() == 0, "the server stops while a reader follows")
        let run = try await reader
        let result = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
        #expect(result["ended"] as? String == "whole", "the stream's end arrived: \(run.output)")
        await store.cleanUp()
    }
}

extension Array {
    /// The first two elements, when there are exactly two.
    fileprivate var twoParts: (Element, Element)? { count == 2 ? (self[0], self[1]) : nil }
}
