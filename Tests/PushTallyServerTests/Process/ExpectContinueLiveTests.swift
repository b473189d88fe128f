import Foundation
import PushTallyTestSupport
import Testing

/// `Expect: 100-continue` against the real `pushtally serve`, on the fast path and with `--no-fast-path`.
@Suite(.serialized) struct ExpectContinueLiveTests {
    static let paths: [[String]] = [[], ["--no-fast-path"]]

    /// About 2 MB of NDJSON receipts, and how many lines it holds.
    static func batch() -> (text: String, count: Int) {
        var text = ""
        var count = 0
        while text.utf8.count < 2_000_000 {
            text += #"{"push_id":"big","device_id":"d\#(count)","receipt_id":"r\#(count)","pad":"\#(String(repeating: "x", count: 150))"}"# + "\n"
            count += 1
        }
        return (text, count)
    }

    static func head(length: Int, type: String = "application/x-ndjson", extra: String = "") -> String {
        "POST /v1/receipts HTTP/1.1\r\nHost: x\r\nContent-Type: \(type)\r\nContent-Length: \(length)\r\n\(extra)Expect: 100-continue\r\n\r\n"
    }

    @Test(arguments: paths) func theInterimAnswerComesBeforeAnyBodyByteIsSent(_ arguments: [String]) async throws {
        let server = try ServerProcess(extraArguments: arguments)
        defer { server.removeFiles() }
        try await server.start()
        let (body, count) = Self.batch()
        // The receive timeout only guards against a hang; what is checked is the order of the answers. The final
        // answer waits for a 2 MB batch of about 9,000 receipts to be parsed and committed by a debug build: about
        // 2 s on a quiet machine, and past 10 s on the router path when the whole parallel suite (floods of 30,000
        // action ids, a dozen collectors of the docs tests) shares the two cores with it.
        let connection = try RawConnection(port: server.port, receiveTimeoutSeconds: 60)
        // The client runs on a thread of its own, as a real one does: a task resumed late on a crowded pool would
        // send the body after the server's slow-request clock gave up on it.
        let (interim, final, waited) = try await blocking {
            connection.write(Self.head(length: body.utf8.count))
            // Nothing of the body is sent until the 100 is read (the receive timeout guards against a hang).
            let interim = connection.blockingReadResponse()
            let sent = ContinuousClock.now
            connection.write(body)
            return (interim, connection.blockingReadResponse(), ContinuousClock.now - sent)
        }
        #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(final.hasPrefix("HTTP/1.1 200"), "after \(waited): '\(final)'; the server logged: \(server.log)")
        #expect(try await server.stop() == 0)
        let report = try await runPushtally(["report", "push", "big", "--format", "json", "--database", server.databasePath])
        #expect(report.stdout.contains(#""displayed":\#(count)"#))
    }

    /// curl sends `Expect: 100-continue` with a large body and waits up to a second for the 100: its trace shows
    /// the 100 received before any of the body was sent (which a timeout would not).
    @Test(arguments: paths) func curlsDefaultUploadGetsItsContinue(_ arguments: [String]) async throws {
        let server = try ServerProcess(extraArguments: arguments)
        defer { server.removeFiles() }
        try await server.start()
        let file = server.directory.appendingPathComponent("batch.ndjson")
        try Data(Self.batch().text.utf8).write(to: file)
        let trace = server.directory.appendingPathComponent("curl.trace").path
        let result = try await runProcess(
            "/usr/bin/curl",
            ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--trace-ascii", trace, "-H", "Content-Type: application/x-ndjson",
             "--data-binary", "@\(file.path)", "\(server.baseURL)/v1/receipts"])
        #expect(result.output == "200")
        let log = try String(contentsOfFile: trace, encoding: .utf8)
        let expect = try #require(log.range(of: "Expect: 100-continue"))
        let interim = try #require(log.range(of: "HTTP/1.1 100 Continue"))
        let firstData = try #require(log.range(of: "=> Send data"))
        #expect(expect.lowerBound < interim.lowerBound && interim.lowerBound < firstData.lowerBound)
        #expect(try await server.stop() == 0)
    }

    /// Refused from the head alone: the answer comes without the body being sent, and the connection closes.
    @Test(arguments: paths) func aBodyRefusedUpFrontIsNeverRead(_ arguments: [String]) async throws {
        let server = try ServerProcess(extraArguments: arguments + ["--require-ingest-key"])
        defer { server.removeFiles() }
        try await server.start()
        let key = "Authorization: Bearer \(server.adminToken)\r\n"
        let cases = [
            ("413", Self.head(length: 5_000_000, extra: key)),
            ("415", Self.head(length: 100, type: "text/plain", extra: key)),
            ("415", Self.head(length: 100, extra: key + "Content-Encoding: br\r\n")),
            ("401", Self.head(length: 100)),
            ("401", Self.head(length: 100, extra: "Authorization: Bearer pt_000000000000_" + String(repeating: "0", count: 64) + "\r\n")),
        ]
        for (status, head) in cases {
            let connection = try RawConnection(port: server.port, receiveTimeoutSeconds: 10)
            let (answer, closed) = try await blocking {
                connection.write(head)
                return (connection.blockingReadResponse(), connection.blockingWaitForClose())
            }
            #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(head): \(answer)")
            #expect(answer.lowercased().contains("connection: close"))
            #expect(closed, "\(head)")
        }
        // An admitted head on the same server gets its 100, then its answer.
        let connection = try RawConnection(port: server.port, receiveTimeoutSeconds: 10)
        let (interim, final) = try await blocking {
            connection.write(Self.head(length: 9, type: "application/x-www-form-urlencoded", extra: key))
            let interim = connection.blockingReadResponse()
            connection.write("push_id=k")
            return (interim, connection.blockingReadResponse())
        }
        #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(final.hasPrefix("HTTP/1.1 204"), "\(final)")
        #expect(try await server.stop() == 0)
    }
}
