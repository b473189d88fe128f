import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// `serve --cors-origin` on raw HTTP, on both ingest paths: the fast path, and the router's routes
/// (`--no-fast-path`). Exact headers: a browser reads them, and a missing or extra one changes what it allows.
@Suite struct CORSLiveTests {
    static let site = "https://www.example.com"
    static let other = "http://127.0.0.1:8000"
    static let stranger = "https://evil.example"

    static func configuration(fastPath: Bool, origins: [String] = [site, other]) -> ServerConfiguration {
        var configuration = ServerConfiguration(port: 0)
        configuration.ingestFastPath = fastPath
        configuration.cors = CORSPolicy(origins: origins)
        return configuration
    }

    /// One answer read off a raw socket.
    struct Answer: CustomStringConvertible {
        let status: Int
        /// Lower-cased name to value.
        let headers: [String: String]
        let body: String
        let raw: String

        init(_ raw: String) {
            self.raw = raw
            let parts = raw.components(separatedBy: "\r\n\r\n")
            let lines = parts[0].components(separatedBy: "\r\n")
            status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            self.headers = headers
            body = parts.dropFirst().joined(separator: "\r\n\r\n")
        }

        /// The header names beyond the framing every answer has.
        var names: Set<String> { Set(headers.keys).subtracting(["date", "server", "content-length", "connection"]) }
        var description: String { raw }
    }

    static func exchange(_ port: Int, _ method: String, _ path: String, origin: String?, headers: [String] = [], body: String = "") async throws -> Answer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: collector\r\nConnection: close\r\n"
        if let origin { head += "Origin: \(origin)\r\n" }
        for header in headers { head += header + "\r\n" }
        if method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
        return Answer(try await rawExchange(port: port, Array((head + "\r\n" + body).utf8)))
    }

    static let form = "Content-Type: application/x-www-form-urlencoded"
    static let ndjson = "Content-Type: application/x-ndjson"
    static let answerHeaders: Set<String> = ["access-control-allow-origin", "vary"]
    static let preflightHeaders: Set<String> = [
        "access-control-allow-origin", "vary", "access-control-allow-methods", "access-control-allow-headers", "access-control-max-age",
    ]

    @Test(arguments: [true, false])
    func listedOriginsGetPreflightsAndReadableAnswersOnEveryIngestRoute(fastPath: Bool) async throws {
        try await withApp(.live, configuration: Self.configuration(fastPath: fastPath)) { client, fixture in
            let port = try #require(client.port)
            for route in ["/v1/receipts", "/v1/actions", "/v1/sessions", "/v1/conversions"] {
                for origin in [Self.site, Self.other] {
                    let preflight = try await Self.exchange(
                        port, "OPTIONS", route, origin: origin,
                        headers: ["Access-Control-Request-Method: POST", "Access-Control-Request-Headers: content-type,content-encoding"])
                    #expect(preflight.status == 204, "\(preflight)")
                    #expect(preflight.names == Self.preflightHeaders, "\(preflight)")
                    #expect(preflight.headers["access-control-allow-origin"] == origin)
                    #expect(preflight.headers["vary"] == "Origin")
                    #expect(preflight.headers["access-control-allow-methods"] == "POST")
                    #expect(preflight.headers["access-control-allow-headers"] == "Content-Type, Authorization, Content-Encoding")
                    #expect(preflight.headers["access-control-max-age"] == "7200")
                    #expect(preflight.body.isEmpty)
                }
            }
            // Answers of every kind carry the origin: a single event, a batch, and errors.
            let single = try await Self.exchange(port, "POST", "/v1/receipts", origin: Self.site, headers: [Self.form], body: "push_id=c1&receipt_id=r1")
            #expect(single.status == 204, "\(single)")
            #expect(single.names == Self.answerHeaders, "\(single)")
            #expect(single.headers["access-control-allow-origin"] == Self.site)
            let batch = try await Self.exchange(
                port, "POST", "/v1/actions", origin: Self.other, headers: [Self.ndjson],
                body: #"{"push_id":"c1","action":"open","platform":"web"}"# + "\n" + #"{"push_id":"c1"}"#)
            #expect(batch.status == 200, "\(batch)")
            #expect(batch.names == Self.answerHeaders.union(["content-type"]), "\(batch)")
            #expect(batch.headers["access-control-allow-origin"] == Self.other)
            #expect(batch.body.contains(#""accepted":1"#) && batch.body.contains(#""field":"action""#), "\(batch)")
            let missing = try await Self.exchange(port, "POST", "/v1/receipts", origin: Self.site, headers: [Self.form], body: "device_id=d")
            #expect(missing.status == 400 && missing.body.contains(#""field":"push_id""#), "\(missing)")
            #expect(missing.names == Self.answerHeaders.union(["content-type"]), "\(missing)")
            let unsupported = try await Self.exchange(port, "POST", "/v1/receipts", origin: Self.site, headers: ["Content-Type: text/csv"], body: "x")
            #expect(unsupported.status == 415 && unsupported.headers["access-control-allow-origin"] == Self.site, "\(unsupported)")
            let session = try await Self.exchange(
                port, "POST", "/v1/sessions", origin: Self.site, headers: ["Content-Type: application/json"],
                body: #"{"device_id":"d1","session_id":"s1"}"#)
            #expect(session.status == 204 && session.names == Self.answerHeaders, "\(session)")
            let conversion = try await Self.exchange(
                port, "POST", "/v1/conversions", origin: Self.site, headers: ["Content-Type: application/json"],
                body: #"{"device_id":"d1","event":"signup","conversion_id":"k1"}"#)
            #expect(conversion.status == 204 && conversion.names == Self.answerHeaders, "\(conversion)")
            let figures = try await fixture.store.pushFigures()
            #expect(figures.first { $0.pushID == "c1" }?.funnel.displayedUnique == 1, "\(figures)")
        }
    }

    @Test(arguments: [true, false])
    func anOriginNotListedIsRefusedWithoutCORSHeadersAndNothingIsStored(fastPath: Bool) async throws {
        try await withApp(.live, configuration: Self.configuration(fastPath: fastPath)) { client, fixture in
            let port = try #require(client.port)
            // The same origin but for its scheme, its port or a trailing slash is another origin; every route.
            let origins = [Self.stranger, "http://www.example.com", "https://www.example.com:444", "https://www.example.com/", "null"]
            let routes = ["/v1/receipts", "/v1/actions", "/v1/sessions", "/v1/conversions"]
            for origin in origins {
                for route in origin == Self.stranger ? routes : ["/v1/receipts"] {
                    // A plain form POST, which a browser sends without a preflight.
                    let post = try await Self.exchange(
                        port, "POST", route, origin: origin, headers: [Self.form],
                        body: "push_id=x1&action=open&device_id=d&session_id=s&event=e")
                    #expect(post.status == 403, "\(post)")
                    #expect(post.names == ["content-type"], "\(post)")
                    #expect(post.body.contains(#""error":"origin_not_allowed""#) && post.body.contains(#""field":"Origin""#), "\(post)")
                    let preflight = try await Self.exchange(port, "OPTIONS", route, origin: origin, headers: ["Access-Control-Request-Method: POST"])
                    #expect(preflight.status == 403 && preflight.names == ["content-type"], "\(preflight)")
                    #expect(preflight.body.contains(#""error":"origin_not_allowed""#), "\(preflight)")
                }
            }
            // Refused from its head when it waits for 100 Continue: no invitation, no body read.
            let waiting = try await Self.exchange(
                port, "POST", "/v1/receipts", origin: Self.stranger, headers: [Self.form, "Expect: 100-continue"], body: "push_id=x2")
            #expect(waiting.status == 403 && !waiting.raw.contains("100 Continue"), "\(waiting)")
            // Batches too.
            let batch = try await Self.exchange(port, "POST", "/v1/receipts", origin: Self.stranger, headers: [Self.ndjson], body: #"{"push_id":"x3"}"#)
            #expect(batch.status == 403, "\(batch)")
            #expect(try await fixture.store.pushFigures().isEmpty)
            let token = try #require(fixture.tokens[.admin])
            let timeline = try await Self.exchange(port, "GET", "/v1/devices/d/timeline", origin: nil, headers: ["Authorization: Bearer \(token)"])
            #expect(timeline.status == 200 && timeline.body.contains(#""events":[]"#), "no session, conversion or tap of device d: \(timeline)")
        }
    }

    @Test(arguments: [true, false])
    func requestsWithoutOriginAndOtherRoutesAreAnsweredAsWithoutCORS(fastPath: Bool) async throws {
        try await withApp(.live, configuration: Self.configuration(fastPath: fastPath)) { client, fixture in
            let port = try #require(client.port)
            // Apps, extensions and backends send no Origin.
            let app = try await Self.exchange(port, "POST", "/v1/receipts", origin: nil, headers: [Self.form], body: "push_id=n1")
            #expect(app.status == 204 && app.names.isEmpty, "\(app)")
            let options = try await Self.exchange(port, "OPTIONS", "/v1/receipts", origin: nil)
            #expect(options.status == 405 && options.headers["allow"] == "POST", "\(options)")
            #expect(!options.names.contains { $0.hasPrefix("access-control") })
            // Report routes get no CORS, even for a listed origin.
            let token = try #require(fixture.tokens[.read])
            let report = try await Self.exchange(port, "GET", "/v1/reports/campaigns", origin: Self.site, headers: ["Authorization: Bearer \(token)"])
            #expect(report.status == 200 && !report.names.contains { $0.hasPrefix("access-control") }, "\(report)")
            let reportPreflight = try await Self.exchange(port, "OPTIONS", "/v1/reports/campaigns", origin: Self.site)
            #expect(reportPreflight.status == 405 && !reportPreflight.names.contains { $0.hasPrefix("access-control") }, "\(reportPreflight)")
            let push = try await Self.exchange(
                port, "PUT", "/v1/pushes/n1", origin: Self.stranger, headers: ["Content-Type: application/json", "Authorization: Bearer \(token)"],
                body: #"{"campaign":"c"}"#)
            #expect(push.status == 403 && !push.body.contains("origin_not_allowed"), "a read token, refused as without CORS: \(push)")
        }
    }

    @Test(arguments: [true, false])
    func withoutTheFlagNothingChanges(fastPath: Bool) async throws {
        try await withApp(.live, configuration: Self.configuration(fastPath: fastPath, origins: [])) { client, fixture in
            let port = try #require(client.port)
            let post = try await Self.exchange(port, "POST", "/v1/receipts", origin: Self.stranger, headers: [Self.form], body: "push_id=w1")
            #expect(post.status == 204 && post.names.isEmpty, "\(post)")
            let preflight = try await Self.exchange(port, "OPTIONS", "/v1/receipts", origin: Self.stranger, headers: ["Access-Control-Request-Method: POST"])
            #expect(preflight.status == 405 && preflight.headers["allow"] == "POST", "\(preflight)")
            #expect(!preflight.names.contains { $0.hasPrefix("access-control") })
            #expect(try await fixture.store.pushFigures().map(\.pushID) == ["w1"])
        }
    }

    /// `serve --cors-origin`, or `PUSHTALLY_CORS_ORIGINS` without it; anything but an origin as browsers send it
    /// is refused at start, since it could never match.
    @Test func serveTakesOriginsFromItsFlagOrItsEnvironment() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        let bad = try await runPushtally(["serve", "--port", "0", "--cors-origin", "https://www.example.com/", "--database", server.databasePath])
        #expect(bad.status == 64 && bad.stderr.contains("not https://www.example.com/"), "\(bad.stderr)")
        let badEnvironment = try await runPushtally(
            ["serve", "--port", "0", "--database", server.databasePath], environment: ["PUSHTALLY_CORS_ORIGINS": "https://a.example,*"])
        #expect(badEnvironment.status == 64 && badEnvironment.stderr.contains("not *"), "\(badEnvironment.stderr)")
        server.process.environment = ProcessInfo.processInfo.environment.merging(
            ["PUSHTALLY_CORS_ORIGINS": "https://a.example, https://b.example:8443"]) { $1 }
        try await server.start()
        for origin in ["https://a.example", "https://b.example:8443"] {
            let preflight = try await Self.exchange(server.port, "OPTIONS", "/v1/receipts", origin: origin)
            #expect(preflight.status == 204 && preflight.headers["access-control-allow-origin"] == origin, "\(preflight)")
        }
        let refused = try await Self.exchange(server.port, "POST", "/v1/receipts", origin: "https://b.example", headers: [Self.form], body: "push_id=e1")
        #expect(refused.status == 403, "\(refused)")
        #expect(try await server.stop() == 0)
        let help = try await runPushtally(["serve", "--help"])
        #expect(help.stdout.contains("--cors-origin <origin>") && help.stdout.contains("PUSHTALLY_CORS_ORIGINS"), "\(help.stdout)")
    }

    @Test func originsAreTheSerializedFormBrowsersSend() {
        for origin in ["https://www.example.com", "http://127.0.0.1:8000", "http://[::1]:8080", "https://xn--bcher-kva.example"] {
            #expect(CORSPolicy.isSerializedOrigin(origin), "\(origin)")
        }
        for origin in [
            "", "*", "null", "www.example.com", "https://www.example.com/", "https://www.example.com/path", "https://WWW.example.com",
            "HTTPS://www.example.com", "https://", "https://www.example.com:", "https://user@www.example.com", "https://a b.com",
            "https://www.example.com?q", "https://bücher.example",
        ] {
            #expect(!CORSPolicy.isSerializedOrigin(origin), "\(origin)")
        }
    }
}
