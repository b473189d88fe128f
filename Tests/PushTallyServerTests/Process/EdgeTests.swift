import Foundation
import PushTallyTestSupport
import HummingbirdTesting
import PushTallyCore
import Testing

@testable import PushTallyServer

/// A POST with curl from a chosen loopback source address; returns the HTTP status and headers.
func curlPost(_ url: String, body: String, from source: String = "127.0.0.1", extra: [String] = []) async throws -> (status: Int, headers: String) {
    let result = try await runProcess(
        "/usr/bin/curl",
        ["-sk", "-D", "-", "-o", "/dev/null", "--interface", source, "-X", "POST", url,
         "-H", "Content-Type: application/x-www-form-urlencoded", "--data", body] + extra)
    let status = result.output.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return (status, result.output)
}

@Suite struct RateLimiterTests {
    @Test func tokenBucketRefillsAtItsRate() {
        var bucket = TokenBucket(tokens: 2, updatedAt: 0)
        #expect(bucket.take(now: 0, ratePerSecond: 1, burst: 2) == 0)
        #expect(bucket.take(now: 0, ratePerSecond: 1, burst: 2) == 0)
        #expect(bucket.take(now: 0, ratePerSecond: 1, burst: 2) == 1)
        #expect(bucket.take(now: 0.5, ratePerSecond: 1, burst: 2) == 0.5)
        #expect(bucket.take(now: 1.5, ratePerSecond: 1, burst: 2) == 0)
        // Long idle time never fills past the burst.
        #expect(bucket.take(now: 100, ratePerSecond: 1, burst: 2) == 0)
        #expect(bucket.tokens == 1)
    }

    @Test func forwardedForIsBelievedOnlyFromTrustedProxies() {
        let limiter = RateLimiter(limit: .init(ratePerSecond: 1, burst: 1), trustedProxies: ["10.0.0.2"])
        #expect(limiter.clientIP(peer: "203.0.113.9", forwardedFor: "198.51.100.1") == "203.0.113.9")
        #expect(limiter.clientIP(peer: "10.0.0.2", forwardedFor: "198.51.100.1") == "198.51.100.1")
        #expect(limiter.clientIP(peer: "10.0.0.2", forwardedFor: "6.6.6.6, 198.51.100.1, 10.0.0.2") == "198.51.100.1")
        #expect(limiter.clientIP(peer: "10.0.0.2", forwardedFor: nil) == "10.0.0.2")
        #expect(limiter.clientIP(peer: nil, forwardedFor: "1.2.3.4") == "unknown")
    }

    @Test func ingestOverTheRateIs429WithRetryAfter() async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.ingestRateLimit = .init(ratePerSecond: 0.001, burst: 2)  // no refill within the test, however slow the box
        try await withApp(.live, configuration: configuration) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            #expect(try await client.form("/v1/receipts", "push_id=1").status == .noContent)
            #expect(try await client.form("/v1/actions", "push_id=1&action=open").status == .noContent)
            let limited = try await client.form("/v1/receipts", "push_id=1")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // Reports are not ingest: not limited.
            for _ in 0..<5 {
                #expect(try await client.send(.get, "/v1/reports/campaigns", headers: fixture.bearer(.read)).status == .ok)
            }
            #expect(try await fixture.store.pushFigures().first?.funnel.displayed == 1)
        }
    }
}

@Suite(.serialized) struct EdgeTests {
    /// `serve --tls-cert --tls-key` answers HTTPS (what iOS App Transport Security requires).
    @Test func servesHTTPSWithACertificate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cert = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let made = try await runProcess("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
        ])
        try #require(made.status == 0, "openssl could not make a test certificate")
        let server = try ServerProcess(directory: directory, extraArguments: ["--tls-cert", cert, "--tls-key", key])
        defer { server.removeFiles() }
        try await server.start()
        let secure = try await curlPost("https://127.0.0.1:\(server.port)/v1/receipts", body: "push_id=tls")
        #expect(secure.status == 204)
        let plain = try await curlPost("http://127.0.0.1:\(server.port)/v1/receipts", body: "push_id=tls")
        #expect(plain.status != 204)
        #expect(try await server.stop() == 0)
        let missing = try await runPushtally(["serve", "--port", "0", "--database", server.databasePath, "--tls-cert", cert])
        #expect(missing.status == 64)
        let badKey = try await runPushtally(["serve", "--port", "0", "--database", server.databasePath, "--tls-cert", cert, "--tls-key", cert])
        #expect(badKey.status == 4)
    }

    /// The reverse-proxy recipe of docs/OPERATIONS.md: nginx in front, X-Forwarded-For believed only from it.
    @Test func behindNginxClientsAreToldApartAndSpoofingFails() async throws {
        let server = try ServerProcess(extraArguments: [
            "--trusted-proxy", "127.0.0.1", "--ingest-rate-limit", "0.001", "--ingest-burst", "1",
        ])
        defer { server.removeFiles() }
        try await server.start()
        let nginxPort = try freeLoopbackPort()
        let prefix = server.directory.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        let config = prefix.appendingPathComponent("nginx.conf")
        try Self.nginxConfig(listen: nginxPort, upstream: server.port, prefix: prefix.path).write(to: config, atomically: true, encoding: .utf8)
        let nginx = ChildProcess()
        nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        nginx.arguments = ["-c", config.path, "-p", prefix.path]
        nginx.standardError = FileHandle.nullDevice
        try nginx.run()
        defer { nginx.terminate() }
        var up = false
        for _ in 0..<100 where !up {
            up = (try? RawConnection(port: nginxPort)) != nil
            if !up { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(up, "nginx did not start")

        let viaProxy = "http://127.0.0.1:\(nginxPort)/v1/receipts"
        // Two clients behind the proxy have a bucket each.
        await #expect(try curlPost(viaProxy, body: "push_id=p", from: "127.0.0.2").status == 204)
        await #expect(try curlPost(viaProxy, body: "push_id=p", from: "127.0.0.2").status == 429)
        await #expect(try curlPost(viaProxy, body: "push_id=p", from: "127.0.0.3").status == 204)
        // A client cannot pose as another through the proxy: nginx overwrites the header.
        await #expect(try curlPost(viaProxy, body: "push_id=p", from: "127.0.0.2", extra: ["-H", "X-Forwarded-For: 127.0.0.9"]).status == 429)
        // Nor directly: its own header is not believed from an untrusted peer.
        let direct = "http://127.0.0.1:\(server.port)/v1/receipts"
        await #expect(try curlPost(direct, body: "push_id=p", from: "127.0.0.4", extra: ["-H", "X-Forwarded-For: 127.0.0.9"]).status == 204)
        await #expect(try curlPost(direct, body: "push_id=p", from: "127.0.0.4", extra: ["-H", "X-Forwarded-For: 127.0.0.10"]).status == 429)
        #expect(try await server.stop() == 0)
    }

    /// The nginx site of that recipe, with paths made local to the test.
    static func nginxConfig(listen: Int, upstream: Int, prefix: String) -> String {
        """
        daemon off;
        worker_processes 1;
        pid \(prefix)/nginx.pid;
        error_log \(prefix)/error.log;
        events { worker_connections 256; }
        http {
            access_log off;
            client_body_temp_path \(prefix)/body;
            proxy_temp_path \(prefix)/proxy;
            fastcgi_temp_path \(prefix)/fastcgi;
            uwsgi_temp_path \(prefix)/uwsgi;
            scgi_temp_path \(prefix)/scgi;
            upstream pushtally { server 127.0.0.1:\(upstream); keepalive 32; }
            server {
                listen 127.0.0.1:\(listen);
                client_max_body_size 4m;
                location / {
                    proxy_pass http://pushtally;
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    proxy_set_header Host $host;
                    proxy_set_header X-Forwarded-For $remote_addr;
                    proxy_set_header X-Forwarded-Proto $scheme;
                }
            }
        }
        """
    }
}
