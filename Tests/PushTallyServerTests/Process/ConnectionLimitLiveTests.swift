import Foundation
import PushTallyTestSupport
import Testing

/// `--max-connections` and the method table against the real `pushtally serve`, on both ingest paths.
@Suite(.serialized) struct ConnectionLimitLiveTests {
    static let paths: [[String]] = [[], ["--no-fast-path"]]
    static let receipt = "POST /v1/receipts HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\n"

    /// Idle sockets past the limit, some kept alive after a request and some that never sent a byte, do not keep
    /// a new receipt waiting: the longest-idle ones are closed to make room. The idle timeout (300 s) plays no part.
    @Test(arguments: paths) func idleSocketsNeverStarveAReceipt(_ arguments: [String]) async throws {
        let server = try ServerProcess(extraArguments: arguments + ["--max-connections", "50", "--idle-timeout", "300"])
        defer { server.removeFiles() }
        try await server.start()
        let port = server.port
        // The oldest connections are mid-request (a head begun, not finished): they are never the ones closed.
        let begun = try (0..<5).map { _ in try RawConnection(port: port, receiveTimeoutSeconds: 10) }
        for connection in begun { connection.write("POST /v1/receipts HTTP/1.1\r\nHost: x\r\n") }
        try await Task.sleep(for: .milliseconds(300))
        // The clients run on a thread of their own, as real ones do (a task resumed late on a crowded pool is not
        // what is under test).
        let idle = try await blocking {
            try (0..<120).map { index in
                let connection = try RawConnection(port: port, receiveTimeoutSeconds: 10)
                if index.isMultiple(of: 2) {
                    connection.write(Self.receipt + "push_id=k")
                    let answer = connection.blockingReadResponse()
                    guard answer.hasPrefix("HTTP/1.1 204") else { throw TestFailure("keep-alive request \(index): \(answer)") }
                }
                return connection
            }
        }
        // The server takes the idle sockets from its accept queue one eviction at a time: wait until it has them
        // all (at most 50 open, so at least 70 closed), then time a newcomer against a full house.
        for _ in 0..<200 where idle.filter({ $0.isClosedByPeer() }).count < 70 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let connection = try RawConnection(port: port, receiveTimeoutSeconds: 60)
        let clock = ContinuousClock()
        let started = clock.now
        let answer = try await blocking {
            connection.write(Self.receipt + "push_id=n")
            return connection.blockingReadResponse()
        }
        let waited = clock.now - started
        #expect(answer.hasPrefix("HTTP/1.1 204"), "\(answer)")
        // Without eviction it would wait for an idle socket to time out (300 s here). On a quiet machine it is
        // answered in milliseconds (the target is 1 s); eviction runs on the event loops, which the parallel suite
        // and a build beside it starved for up to 4 s (12 s once, in CI), so the bound only separates "evicted"
        // from "timed out".
        #expect(waited < .seconds(60), "the receipt waited \(waited)")
        print("eviction: a receipt over 120 idle sockets at a cap of 50 was answered in \(waited)")
        // At most 50 stay open, 5 of them mid-request and 1 the newcomer's: at least 76 of the idle were closed.
        let closed = idle.filter { $0.isClosedByPeer() }.count
        #expect(closed >= 76, "closed \(closed)")
        #expect(!begun.contains { $0.isClosedByPeer() })
        #expect(try await server.stop() == 0)
    }

    /// A known path answers 405 with `Allow` whatever the method; an unknown path answers 404.
    @Test(arguments: paths) func everyMethodOnAKnownPathIs405WithAllow(_ arguments: [String]) async throws {
        let server = try ServerProcess(extraArguments: arguments)
        defer { server.removeFiles() }
        try await server.start()
        let methods = ["GET", "PUT", "PATCH", "DELETE", "TRACE", "OPTIONS", "CONNECT", "PROPFIND", "PURGE", "MKCOL"]
        for method in methods {
            for (path, allow) in [("/v1/receipts", "POST"), ("/v1/pushes/p1", "PUT"), ("/healthz", "GET")] {
                let request = "\(method) \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
                let answer = try await rawExchange(port: server.port, Array(request.utf8))
                guard method != allow else {
                    // The route's own method reaches its handler (a registration needs a backend token).
                    #expect(!answer.hasPrefix("HTTP/1.1 405") && !answer.hasPrefix("HTTP/1.1 404"), "\(method) \(path): \(answer)")
                    continue
                }
                #expect(answer.hasPrefix("HTTP/1.1 405"), "\(method) \(path): \(answer)")
                #expect(answer.contains("Allow: \(allow)\r\n"), "\(method) \(path): \(answer)")
            }
            let request = "\(method) /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
            let unknown = try await rawExchange(port: server.port, Array(request.utf8))
            #expect(unknown.hasPrefix("HTTP/1.1 404"), "\(method) /nowhere: \(unknown)")
        }
        #expect(try await server.stop() == 0)
    }
}

extension RawConnection {
    /// Whether the server has closed this connection (what is waiting to be read is dropped), without blocking.
    func isClosedByPeer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }
}
