import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// What the ingest fast path promises beyond the ingest suites (which run against it and the router alike):
/// order on pipelined connections, the connection's timeouts, and auth on the same port.
@Suite struct FastPathTests {
    /// Runs `body` against a live server (the fast path answers ingest) with its port.
    func withLiveServer(
        _ configuration: ServerConfiguration = ServerConfiguration(port: 0),
        _ body: @Sendable (Int, any TestClientProtocol, TestFixture) async throws -> Void
    ) async throws {
        try await withApp(.live, configuration: configuration) { client, fixture in
            try await body(try #require(client.port), client, fixture)
        }
    }

    /// Each response of a raw exchange, from its status code on.
    static func responses(_ raw: String) -> [String] {
        raw.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0 }
    }

    static let receipt = "POST /v1/receipts HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"

    @Test func pipelinedRequestsOfBothPathsAreAnsweredInOrder() async throws {
        try await withLiveServer { port, _, fixture in
            let requests =
                Self.receipt + "Content-Length: 11\r\n\r\npush_id=one"
                + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /v1/receipts HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
                + "POST /v1/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 34\r\n\r\n"
                + #"{"push_id":"one","action":"view"}"# + " "
                + "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n"
                + Self.receipt + "Content-Length: 11\r\nConnection: close\r\n\r\npush_id=two"
            let answer = try await rawExchange(port: port, Array(requests.utf8), expectResponses: 6)
            let responses = Self.responses(answer)
            #expect(responses.map { $0.prefix(3) } == ["204", "200", "400", "204", "404", "204"])
            try #require(responses.count == 6)
            // The 400 is the empty receipt's, in its place: the third answer carries its error.
            #expect(responses[2].contains(#""field":"push_id""#))
            #expect(responses[5].lowercased().contains("connection: close"))
            // The fast path's answers carry Date and Server like the router's.
            #expect(responses[0].contains("Date: ") && responses[0].contains("Server: PushTally"))
            let figures = try await fixture.store.pushFigures()
            #expect(figures.map(\.pushID).sorted() == ["one", "two"])
            #expect(figures.first { $0.pushID == "one" }?.funnel.customActions == ["view": 1])
        }
    }

    /// A server process and a client thread of their own: in this process, dozens of servers under test share
    /// two event-loop threads and the tests crowd the cooperative pool, so stalls as long as the idle timeout
    /// happen, and would close the busy connection as they should.
    @Test func aBusyConnectionOutlivesTheIdleTimeoutAndAnIdleOneDoesNot() async throws {
        let server = try ServerProcess(extraArguments: ["--idle-timeout", "2"])
        defer { server.removeFiles() }
        try await server.start()
        let busy = try RawConnection(port: server.port, receiveTimeoutSeconds: 10)
        let idle = try RawConnection(port: server.port, receiveTimeoutSeconds: 30)
        // Four seconds of requests every 250 ms on `busy`: twice the idle timeout, never idle for one.
        // The client loop runs on a thread of its own: a task would resume late on a crowded pool, and a gap
        // past the idle timeout would rightly close the busy connection.
        let answers = try await blocking {
            (0..<16).map { _ in
                busy.write(Self.receipt + "Content-Length: 9\r\n\r\npush_id=b")
                defer { usleep(250_000) }
                return busy.blockingReadResponse()
            }
        }
        #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 204") })
        #expect(await idle.waitForClose())
        #expect(await busy.waitForClose())
        #expect(try await server.stop() == 0)
        let report = try await runPushtally(["report", "push", "b", "--format", "json", "--database", server.databasePath])
        #expect(report.stdout.contains(#""displayed":16"#))
    }

    /// A body trickled a byte a second is closed on either path, though every byte resets no idle clock.
    @Test(arguments: ["POST /v1/receipts", "PUT /v1/pushes/p1"])
    func aTrickledBodyIsClosed(requestLine: String) async throws {
        try await withLiveServer(ServerConfiguration(port: 0, idleTimeoutSeconds: 1)) { port, _, _ in
            let slow = try RawConnection(port: port, receiveTimeoutSeconds: 30)
            slow.write("\(requestLine) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
            let started = ContinuousClock.now
            var closed = false
            // 1 byte every 200 ms is 5 bytes a second, far under the 500 a request must keep up.
            while !closed, ContinuousClock.now - started < .seconds(20) {
                closed = !slow.write(" ")
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(closed)
        }
    }

    @Test func aChunkedBodyOverTheLimitIs413OnEitherPath() async throws {
        try await withLiveServer(ServerConfiguration(port: 0, maxBodyBytes: 1024)) { port, client, fixture in
            let chunk = String(repeating: "x", count: 800)
            let chunked = "Transfer-Encoding: chunked\r\n\r\n320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n"
            let receipt = try await rawExchange(port: port, Array((Self.receipt + chunked).utf8))
            #expect(receipt.hasPrefix("HTTP/1.1 413"))
            #expect(receipt.contains(#""error":"body_too_large""#))
            let put = "PUT /v1/pushes/p1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(fixture.tokens[.admin]!)\r\n"
            let push = try await rawExchange(port: port, Array((put + "Content-Type: application/json\r\n" + chunked).utf8))
            #expect(push.hasPrefix("HTTP/1.1 413"))
            #expect(push.contains(#""error":"body_too_large""#))
            // The connection stays usable after a refused body.
            #expect(try await client.form("/v1/receipts", "push_id=after").status == .noContent)
        }
    }

    @Test func anIngestKeyIsRequiredOnTheFastPathWhenConfigured() async throws {
        try await withLiveServer(ServerConfiguration(port: 0, requireIngestKey: true)) { _, client, fixture in
            #expect(try await client.form("/v1/receipts", "push_id=1").status == .unauthorized)
            let wrongRole = try await client.form("/v1/receipts", "push_id=1", headers: fixture.bearer(.read))
            #expect(wrongRole.status == .forbidden)
            #expect(wrongRole.errorCode == "forbidden")
            #expect(try await client.form("/v1/receipts", "push_id=1", headers: fixture.bearer(.ingest)).status == .noContent)
            let key = fixture.tokens[.ingest]!
            #expect(try await client.form("/v1/receipts?key=\(key)", "push_id=2").status == .noContent)
            #expect(try await fixture.store.pushFigures().count == 2)
        }
    }

    @Test func withTheFastPathOffTheRouterAnswersIngest() async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.ingestFastPath = false
        try await withLiveServer(configuration) { port, client, fixture in
            #expect(try await client.form("/v1/receipts", "push_id=routed").status == .noContent)
            let requests = Self.receipt + "Content-Length: 9\r\n\r\npush_id=aGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
            let pipelined = try await rawExchange(port: port, Array(requests.utf8), expectResponses: 2)
            #expect(Self.responses(pipelined).map { $0.prefix(3) } == ["204", "200"])
            #expect(try await fixture.store.pushFigures().count == 2)
        }
    }

    /// Exact counts need a process of their own: the metrics registry is process-wide, and other tests post too.
    /// The router's ingest routes count the same, once each (not again in the router's metrics middleware).
    @Test(arguments: [[], ["--no-fast-path"]])
    func requestsAreCountedByRouteAndStatus(extraArguments: [String]) async throws {
        let server = try ServerProcess(extraArguments: extraArguments)
        defer { server.removeFiles() }
        try await server.start()
        let receipts = server.baseURL.appendingPathComponent("v1/receipts")
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        for body in ["push_id=1", "push_id=2", "device_id=no-push"] {
            _ = try await httpRequest(receipts, method: "POST", headers: form, body: Data(body.utf8))
        }
        let metrics = String(decoding: try await httpRequest(server.baseURL.appendingPathComponent("metrics")).body, as: UTF8.self)
        #expect(metrics.contains(#"pushtally_http_requests_total{route="/v1/receipts",method="POST",status="204"} 2"#))
        #expect(metrics.contains(#"pushtally_http_requests_total{route="/v1/receipts",method="POST",status="400"} 1"#))
        #expect(metrics.contains(#"pushtally_events_ingested_total{kind="display"} 2"#))
        #expect(metrics.contains(#"pushtally_events_rejected_total{reason="missing_field"} 1"#))
        #expect(try await server.stop() == 0)
    }
}

/// The fast path's `Date` header says what Foundation says.
@Suite struct HTTPDateTests {
    @Test func formatsIMFFixdate() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for seconds: Int64 in [0, 1_795_161_600, 951_782_400, 4_102_444_799] + (0..<500).map({ _ in Int64.random(in: 0...4_102_444_800) }) {
            #expect(HTTPDate.format(secondsSince1970: seconds) == formatter.string(from: Date(timeIntervalSince1970: Double(seconds))))
        }
        var date = HTTPDate()
        #expect(date.now().hasSuffix(" GMT"))
    }
}

/// The connection clock's rules, without a socket.
@Suite struct ConnectionClockTests {
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    @Test func closesAfterTheIdleTimeoutUnlessTheServerIsWorking() {
        var clock = ConnectionClock(idleTimeout: .seconds(30), now: start)
        #expect(clock.check(now: start + .seconds(29), waitingForServer: false) == .checkAgain(start + .seconds(30)))
        #expect(clock.check(now: start + .seconds(30), waitingForServer: false) == .close)
        #expect(clock.check(now: start + .seconds(60), waitingForServer: true) == .checkAgain(start + .seconds(90)))
        clock.touch(now: start + .seconds(20))
        #expect(clock.check(now: start + .seconds(30), waitingForServer: false) == .checkAgain(start + .seconds(50)))
    }

    @Test func aRequestMustKeepArrivingAtTheMinimumRate() {
        var clock = ConnectionClock(idleTimeout: .seconds(30), now: start)
        clock.requestBegan(now: start)
        // A byte every second keeps the idle clock fresh but earns only 2 ms a byte.
        for second in 1...40 {
            clock.received(bytes: 1, now: start + .seconds(Int64(second)))
        }
        #expect(clock.check(now: start + .seconds(40), waitingForServer: false) == .close)
        // 500 bytes a second for a minute is a slow but honest upload: it may go on (under a whole-request limit
        // that lets it).
        var upload = ConnectionClock(limits: .init(idleTimeout: .seconds(30), requestTimeout: .seconds(600)), now: start)
        upload.requestBegan(now: start)
        for second in 1...60 {
            upload.received(bytes: 500, now: start + .seconds(Int64(second)))
        }
        #expect(upload.check(now: start + .seconds(60), waitingForServer: false) == .checkAgain(start + .seconds(90)))
        upload.requestEnded(now: start + .seconds(61))
        #expect(upload.check(now: start + .seconds(62), waitingForServer: true) == .checkAgain(start + .seconds(92)))
    }

    @Test func aRequestMustArriveWholeWithinTheRequestTimeoutHoweverSteadily() {
        var clock = ConnectionClock(limits: .init(idleTimeout: .seconds(30), minimumBytesPerSecond: 500, requestTimeout: .seconds(60)), now: start)
        clock.requestBegan(now: start)
        // Well above the minimum rate all along: only the whole-request limit ends it.
        for second in 1...59 {
            clock.received(bytes: 5_000, now: start + .seconds(Int64(second)))
        }
        #expect(clock.check(now: start + .seconds(59), waitingForServer: false) == .checkAgain(start + .seconds(60)))
        #expect(clock.check(now: start + .seconds(60), waitingForServer: false) == .close)
        #expect(clock.arrivalRate(now: start + .seconds(59)) == 5_000)
        clock.requestEnded(now: start + .seconds(59))
        #expect(clock.arrivalRate(now: start + .seconds(59)) == nil)
    }
}
