import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// Pipelined requests whatever the write boundaries: the same requests split at every byte position, in random
/// chunks, or all in one write get the same answers, in order, as when sent one by one, and each is stored once.
@Suite struct PipelinedChunkingLiveTests {
    /// A receipt for `pushID` as the extension sends it.
    static func receipt(_ pushID: String) -> String {
        let body = "push_id=\(pushID)"
        return "POST /v1/receipts HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// A mix of both ingest routes, a refusal with a body, and a router request between them.
    static func mixedRequests(_ pushID: String) -> [String] {
        let action = #"{"push_id":"\#(pushID)","action":"open"}"#
        return [
            receipt(pushID),
            "POST /v1/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(action.utf8.count)\r\n\r\n"
                + action,
            "POST /v1/receipts HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
            receipt(pushID),
        ]
    }

    /// What a connection answers to `requests` sent one at a time, each after the previous answer.
    static func answersOneByOne(port: Int, _ requests: [String]) async throws -> [String] {
        try await blocking {
            let connection = try RawConnection(port: port)
            return requests.flatMap { request in
                connection.write(request)
                return connection.blockingReadResponses(1).map(Self.describe)
            }
        }
    }

    /// What a connection answers to `requests` sent as one stream cut at `cuts`.
    static func answers(port: Int, _ requests: [String], cuts: [Int]) async throws -> [String] {
        try await blocking {
            let connection = try RawConnection(port: port)
            let bytes = Array(requests.joined().utf8)
            guard connection.blockingWrite(bytes, cuts: cuts, pauseMicroseconds: 1_000) else { return ["closed early"] }
            return connection.blockingReadResponses(requests.count).map(Self.describe)
        }
    }

    static func describe(_ response: (status: Int, body: String)) -> String {
        // The health answer's queue length moves; its status is what the order check needs.
        response.body.contains("queued_events") ? "\(response.status)" : "\(response.status) \(response.body)"
    }

    /// A `pushtally serve` process whose ingest routes `path` answers (`--no-fast-path` for the router): a
    /// process and client threads of their own, since in this process dozens of servers under test share two
    /// event-loop threads and a crowded cooperative pool, and the router's answers can take longer than a
    /// client waits. Returns the receipts stored for `pushID`, read by the CLI after the server stopped.
    static func withServerProcess(
        _ path: IngestPath, pushID: String, _ body: @Sendable (Int) async throws -> Void
    ) async throws -> String {
        let server = try ServerProcess(extraArguments: path == .router ? ["--no-fast-path"] : [])
        defer { server.removeFiles() }
        try await server.start()
        try await body(server.port)
        #expect(try await server.stop() == 0)
        return try await runPushtally(["report", "push", pushID, "--format", "json", "--database", server.databasePath]).stdout
    }

    static func displayed(_ fixture: TestFixture, _ pushID: String) async throws -> Int64 {
        try await fixture.store.pushFigures().first { $0.pushID == pushID }?.funnel.displayed ?? 0
    }

    @Test(arguments: IngestPath.allCases)
    func aRequestCutAfterItsHeadWhileTheWindowIsFullIsAnswered(_ path: IngestPath) async throws {
        let report = try await Self.withServerProcess(path, pushID: "window") { port in
            // 63 whole receipts and the head plus one byte of a 64th fill the 64 answers the fast path runs
            // at once; the rest of the 64th arrives only after the first 63 answers.
            let whole = (0..<63).map { _ in Self.receipt("window") }.joined()
            let last = Self.receipt("window")
            let cut = last.utf8.count - "push_id=window".utf8.count + 1
            let answers = try await blocking {
                let connection = try RawConnection(port: port, receiveTimeoutSeconds: 120)
                connection.write(whole + String(last.prefix(cut)))
                var answers = connection.blockingReadResponses(63)
                connection.write(String(last.dropFirst(cut)))
                answers += connection.blockingReadResponses(1)
                return answers.map(\.status)
            }
            #expect(answers == Array(repeating: 204, count: 64))
        }
        #expect(report.contains(#""displayed":64"#), "\(report)")
    }

    @Test(arguments: IngestPath.allCases)
    func aThousandReceiptsInOneWriteAreEachAnsweredAndStoredOnce(_ path: IngestPath) async throws {
        let report = try await Self.withServerProcess(path, pushID: "thousand") { port in
            let requests = Array(repeating: Self.receipt("thousand"), count: 1000).joined()
            let answers = try await blocking {
                let connection = try RawConnection(port: port, receiveTimeoutSeconds: 120)
                connection.write(requests)
                return connection.blockingReadResponses(1000).map(\.status)
            }
            #expect(answers == Array(repeating: 204, count: 1000))
        }
        #expect(report.contains(#""displayed":1000"#), "\(report)")
    }

    @Test func everyCutOfAPipelinedExchangeGivesTheAnswersOfOneByOne() async throws {
        try await withApp(.live) { client, fixture in
            let port = try #require(client.port)
            let requests = Self.mixedRequests("cut")
            let expected = try await Self.answersOneByOne(port: port, requests)
            #expect(expected.map { $0.prefix(3) } == ["204", "204", "400", "200", "204"])
            let length = requests.joined().utf8.count
            var mismatches: [String] = []
            for position in 1..<length {
                let answers = try await Self.answers(port: port, requests, cuts: [position])
                if answers != expected { mismatches.append("cut at \(position): \(answers)") }
            }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
            // Two receipts a connection, one by one once and once for every cut.
            #expect(try await Self.displayed(fixture, "cut") == Int64(2 * length))
        }
    }

    @Test(arguments: [UInt64(1), 7, 2018001])
    func randomChunkingsGiveTheAnswersOfOneByOne(seed: UInt64) async throws {
        try await withApp(.live) { client, fixture in
            let port = try #require(client.port)
            let requests = (0..<40).flatMap { _ in Self.mixedRequests("chunks") }
            let expected = try await Self.answersOneByOne(port: port, requests)
            var rng = SplitMix64(state: seed)
            let length = requests.joined().utf8.count
            var cuts: [Int] = []
            var position = 0
            while position < length {
                // Mostly small pieces, now and then a large one that holds many requests.
                position += Bool.random(using: &rng) ? Int.random(in: 1...64, using: &rng) : Int.random(in: 1...6_000, using: &rng)
                cuts.append(position)
            }
            let answers = try await Self.answers(port: port, requests, cuts: cuts)
            #expect(answers.count == expected.count)
            #expect(answers == expected)
            #expect(try await Self.displayed(fixture, "chunks") == 2 * 40 * 2)
        }
    }
}
