import Foundation
import PushTallyTestSupport
import Testing

/// Bytes no client library would send, over raw sockets to a real `pushtally serve`: broken framing and
/// chunking, gzip bodies of several members or cut short, heads RFC 9112 refuses, text that is not text, and
/// clients that half-close. Each case has its exact status and JSON error code, and what was stored is counted
/// (nothing, unless the answer says so). Every case runs on the fast path and on the router, on SQLite and on
/// PostgreSQL, and afterwards `/metrics` shows no 5xx.
@Suite struct HostileBytesCorpusTests {
    /// One exchange: what is sent, the answers expected in order (status, error code), and how many events of
    /// the case's push were stored.
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let answers: [(status: Int, error: String?)]
        let stored: Int
        var halfClose = false
        /// Whether the connection must be closed after the answers (read until the close).
        var closes = true
        /// Text the last answer must hold (its message or field), when the status and code alone do not tell
        /// the refusal from another.
        var says: String? = nil
        public var description: String { name }
    }

    struct Setup: Sendable, CustomStringConvertible {
        let kind: StoreKind
        let fastPath: Bool
        var description: String { "\(kind), \(fastPath ? "fast path" : "router")" }
    }

    static let setups = StoreKind.allCases.flatMap { kind in [Setup(kind: kind, fastPath: true), Setup(kind: kind, fastPath: false)] }

    @Test(arguments: setups) func everyCaseGetsItsAnswerAndStoresWhatItSays(_ setup: Setup) async throws {
        let store = try await StoreServer.start(setup.kind, name: "corpus", extraArguments: setup.fastPath ? [] : ["--no-fast-path"])
        let server = store.server
        for testCase in try await Self.corpus(token: server.adminToken) {
            let text = try await rawExchange(
                port: server.port, testCase.bytes, expectResponses: testCase.closes ? Int.max : testCase.answers.count,
                halfClose: testCase.halfClose)
            let answers = Self.answers(in: text)
            #expect(answers.map(\.status) == testCase.answers.map(\.status), "\(setup) \(testCase): \(text)")
            #expect(answers.map(\.error) == testCase.answers.map(\.error), "\(setup) \(testCase): \(text)")
            // A half-closed client's last answer was written before the close was decided; others say it.
            if testCase.closes, !testCase.halfClose, let last = answers.last {
                #expect(last.closes, "\(setup) \(testCase): the last answer says Connection: close: \(text)")
            }
            if let says = testCase.says {
                #expect(text.contains(says), "\(setup) \(testCase): \(text)")
            }
            let stored = try await Self.displayed(Self.pushID(testCase.name), on: server)
            #expect(stored == testCase.stored, "\(setup) \(testCase): stored \(stored)")
        }
        // Nothing registered by a PUT whose body broke.
        for name in ["put-bad-chunk", "put-lf-chunk", "put-trailer-no-colon", "put-truncated-gzip"] {
            let push = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/reports/pushes/\(Self.pushID(name))"),
                headers: ["Authorization": "Bearer \(server.adminToken)"])
            #expect(push.status == 404, "\(setup) \(name): \(String(decoding: push.body, as: UTF8.self))")
        }
        // A client that resets the connection in the middle of a body (SO_LINGER 0), on an ingest route and on a
        // route only the router serves: its request is the client's mistake, not a 5xx below.
        for head in [
            "POST /v1/receipts HTTP/1.1\r\nHost: corpus\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n",
            "PUT /v1/pushes/\(Self.pushID("reset")) HTTP/1.1\r\nHost: corpus\r\nAuthorization: Bearer \(server.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n",
        ] {
            let connection = try RawConnection(port: server.port)
            connection.write(head + #"{"push_id":"#)
            // The head is read and the route is waiting for the rest of the body before the reset comes.
            try await Task.sleep(for: .milliseconds(300))
            connection.reset()
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await Self.displayed(Self.pushID("reset"), on: server) == 0)
        let metrics = String(decoding: try await httpRequest(server.baseURL.appendingPathComponent("metrics")).body, as: UTF8.self)
        let serverErrors = metrics.split(separator: "\n").filter { $0.hasPrefix("pushtally_http_requests_total") && $0.contains(#"status="5"#) }
            .filter { !$0.contains(#"status="501""#) }
        #expect(serverErrors.isEmpty, "\(setup): \(serverErrors)")
        #expect(!server.log.contains("unexpected error"), "\(setup): \(server.log)")
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    // MARK: The corpus

    static func pushID(_ name: String) -> String { "corpus-\(name)" }

    static func corpus(token: String) async throws -> [Case] {
        func receipt(_ name: String, _ rest: String = "") -> String {
            "POST /v1/receipts HTTP/1.1\r\nHost: corpus\r\nContent-Type: application/x-www-form-urlencoded\r\n" + rest
        }
        func form(_ name: String) -> String { "push_id=\(pushID(name))" }
        func json(_ name: String, _ extra: String = "") -> String { #"{"push_id":"\#(pushID(name))"\#(extra)}"# }
        func put(_ name: String) -> String {
            "PUT /v1/pushes/\(pushID(name)) HTTP/1.1\r\nHost: corpus\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        }
        func post(_ type: String, _ body: [UInt8], extra: String = "") -> [UInt8] {
            Array("POST /v1/receipts HTTP/1.1\r\nHost: corpus\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n\(extra)\r\n".utf8) + body
        }
        func ndjson(_ name: String, lines: Int) -> [UInt8] {
            Array(String(repeating: json(name) + "\n", count: lines).utf8)
        }
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        let chunkedReceipt = { (name: String) in receipt(name, "Transfer-Encoding: chunked\r\n\r\n") }
        /// A whole form receipt of `name`'s push with `host` as its Host.
        func hosted(_ host: String, _ name: String) -> String {
            "POST /v1/receipts HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(form(name).count)\r\n\r\n" + form(name)
        }
        let goodHosts = ["[::1]:8080", "localhost", "127.0.0.1:8080", "my_host-1.example.com", "%65xample.com", "example.com:", "[v1.fe]", ""]
        let bad = (400, "malformed_http") as (Int, String?)
        let gzipBad = (400, "malformed_gzip") as (Int, String?)

        // Gzip bodies: each member a gzip file of its own, as `cat a.gz b.gz` makes them.
        let twoMembers = try await gzip(ndjson("gzip-two-members", lines: 2)) + gzip(ndjson("gzip-two-members", lines: 2))
        let single = try await gzip(ndjson("gzip-trailing-garbage", lines: 2))
        let zeros = try await gzip(ndjson("gzip-trailing-zeros", lines: 1))
        let truncated = try await gzip(ndjson("gzip-no-trailer", lines: 2))
        let partial = try await gzip(ndjson("gzip-partial-trailer", lines: 2))
        var wrongCRC = try await gzip(ndjson("gzip-wrong-crc", lines: 2))
        wrongCRC[wrongCRC.count - 8] ^= 0xFF
        let cutInside = try await gzip(ndjson("gzip-cut-inside", lines: 50))
        let secondCut = try await gzip(ndjson("gzip-second-member-cut", lines: 1)) + gzip(ndjson("gzip-second-member-cut", lines: 1)).dropLast(3)
        let ndjsonType = "application/x-ndjson", gzipped = "Content-Encoding: gzip\r\n"

        return [
            // Chunked bodies that break mid-way, on an ingest route and on a route only the router serves.
            Case(name: "bad-chunk-size", bytes: bytes(chunkedReceipt("") + "5\r\npush_\r\nZZ\r\nid=x\r\n0\r\n\r\n"), answers: [bad], stored: 0),
            Case(
                name: "chunk-longer-than-its-size", bytes: bytes(chunkedReceipt("") + "3\r\n" + form("chunk-longer-than-its-size") + "\r\n0\r\n\r\n"),
                answers: [bad], stored: 0),
            Case(
                name: "trailer-with-content-length",
                bytes: bytes(chunkedReceipt("") + "\(form("trailer-with-content-length").count.hex)\r\n\(form("trailer-with-content-length"))\r\n0\r\nContent-Length: 5\r\n\r\n"),
                answers: [bad], stored: 0),
            Case(name: "put-bad-chunk", bytes: bytes(put("put-bad-chunk") + "5\r\n{\"cam\r\nZZ\r\npaign\":\"c\"}\r\n0\r\n\r\n"), answers: [bad], stored: 0),
            Case(name: "put-lf-chunk", bytes: bytes(put("put-lf-chunk") + "5\n{\"cam\r\n0\r\n\r\n"), answers: [bad], stored: 0),
            Case(
                name: "put-trailer-no-colon", bytes: bytes(put("put-trailer-no-colon") + "2\r\n{}\r\n0\r\nno colon here\r\n\r\n"),
                answers: [bad], stored: 0),
            // A client gone mid-body: answered (nobody reads it) with a 4xx, never a 5xx, and nothing stored.
            Case(name: "gone-mid-chunk", bytes: bytes(chunkedReceipt("") + "20\r\npush_id=corpus-gone-mid"), answers: [bad], stored: 0, halfClose: true),
            Case(
                name: "gone-mid-body", bytes: bytes(receipt("", "Content-Length: 100\r\n\r\n") + form("gone-mid-body")), answers: [bad],
                stored: 0, halfClose: true),
            // Gzip: every member inflated, anything else refused whole.
            Case(
                name: "gzip-two-members", bytes: post(ndjsonType, twoMembers, extra: gzipped), answers: [(200, nil)], stored: 4, closes: false),
            Case(name: "gzip-trailing-garbage", bytes: post(ndjsonType, single + bytes("trailing"), extra: gzipped), answers: [gzipBad], stored: 0, closes: false),
            Case(name: "gzip-trailing-zeros", bytes: post(ndjsonType, zeros + [0, 0, 0, 0], extra: gzipped), answers: [gzipBad], stored: 0, closes: false),
            Case(name: "gzip-no-trailer", bytes: post(ndjsonType, Array(truncated.dropLast(8)), extra: gzipped), answers: [gzipBad], stored: 0, closes: false),
            Case(name: "gzip-partial-trailer", bytes: post(ndjsonType, Array(partial.dropLast(3)), extra: gzipped), answers: [gzipBad], stored: 0, closes: false),
            Case(name: "gzip-wrong-crc", bytes: post(ndjsonType, wrongCRC, extra: gzipped), answers: [gzipBad], stored: 0, closes: false),
            Case(name: "gzip-cut-inside", bytes: post(ndjsonType, Array(cutInside.prefix(cutInside.count / 2)), extra: gzipped), answers: [gzipBad], stored: 0, closes: false),
            Case(name: "gzip-second-member-cut", bytes: post(ndjsonType, Array(secondCut), extra: gzipped), answers: [gzipBad], stored: 0, closes: false),
            Case(name: "gzip-not-gzip", bytes: post(ndjsonType, bytes(json("gzip-not-gzip")), extra: gzipped), answers: [gzipBad], stored: 0, closes: false),
            // Every complete request before a half-close is answered, in order, then the connection closes.
            Case(
                name: "half-close",
                bytes: Array(repeating: bytes(receipt("", "Content-Length: \(form("half-close").count)\r\n\r\n") + form("half-close")), count: 8).flatMap { $0 },
                answers: Array(repeating: (204, nil), count: 8), stored: 8, halfClose: true),
            Case(
                name: "half-close-after-router",
                bytes: bytes("GET /healthz HTTP/1.1\r\nHost: corpus\r\n\r\n" + receipt("", "Content-Length: \(form("half-close-after-router").count)\r\n\r\n") + form("half-close-after-router")),
                answers: [(200, nil), (204, nil)], stored: 1, halfClose: true),
            // Heads RFC 9112 refuses.
            Case(
                name: "http10-closes",
                bytes: bytes("POST /v1/receipts HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form("http10-closes").count)\r\n\r\n" + form("http10-closes")),
                answers: [(204, nil)], stored: 1),
            Case(name: "no-host", bytes: bytes("POST /v1/receipts HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form("no-host").count)\r\n\r\n" + form("no-host")), answers: [bad], stored: 0),
            Case(name: "two-hosts", bytes: bytes(receipt("", "Host: other\r\nContent-Length: \(form("two-hosts").count)\r\n\r\n") + form("two-hosts")), answers: [bad], stored: 0),
            // Host is uri-host [":" port] (RFC 9112 §3.2): anything else is a 400; what clients send is taken.
            Case(name: "host-with-space", bytes: bytes(hosted("x y", "host-with-space")), answers: [bad], stored: 0, says: "Host is not a host[:port]: a host name cannot hold a space"),
            Case(name: "host-with-userinfo", bytes: bytes(hosted("u@x", "host-with-userinfo")), answers: [bad], stored: 0, says: "cannot hold '@'"),
            Case(name: "host-port-not-a-number", bytes: bytes(hosted("x:abc", "host-port-not-a-number")), answers: [bad], stored: 0, says: "its port 'abc' is not a number"),
            Case(name: "host-port-too-large", bytes: bytes(hosted("x:99999", "host-port-too-large")), answers: [bad], stored: 0, says: "its port '99999' is past 65535"),
            Case(name: "host-bad-ip-literal", bytes: bytes(hosted("[::g]:80", "host-bad-ip-literal")), answers: [bad], stored: 0, says: "not an IPv6 address"),
            Case(
                name: "unknown-transfer-coding",
                bytes: bytes(receipt("", "Transfer-Encoding: gzip, chunked\r\n\r\n") + "\(form("unknown-transfer-coding").count.hex)\r\n\(form("unknown-transfer-coding"))\r\n0\r\n\r\n"),
                answers: [(501, "unsupported_transfer_encoding")], stored: 0),
            Case(
                name: "chunked-twice",
                bytes: bytes(receipt("", "Transfer-Encoding: chunked, chunked\r\n\r\n") + "\(form("chunked-twice").count.hex)\r\n\(form("chunked-twice"))\r\n0\r\n\r\n"),
                answers: [bad], stored: 0),
            Case(name: "bad-content-length", bytes: bytes(receipt("", "Content-Length: 1x\r\n\r\n") + form("bad-content-length")), answers: [bad], stored: 0),
            Case(name: "two-content-lengths", bytes: bytes(receipt("", "Content-Length: 5\r\nContent-Length: 6\r\n\r\n") + form("two-content-lengths")), answers: [bad], stored: 0),
            Case(name: "bad-method", bytes: bytes("P\u{1}ST /v1/receipts HTTP/1.1\r\nHost: corpus\r\n\r\n"), answers: [bad], stored: 0),
            // A method token SwiftNIO's parser does not know is implemented nowhere here (RFC 9110 §9.1: 501), also
            // after a request answered on the same connection; methods it knows get the routes' 405 and Allow.
            Case(
                name: "unknown-method", bytes: bytes("FOO /v1/receipts HTTP/1.1\r\nHost: corpus\r\n\r\n"),
                answers: [(501, "method_not_implemented")], stored: 0, says: "the method FOO is not implemented"),
            Case(
                name: "lower-case-method", bytes: bytes("get /healthz HTTP/1.1\r\nHost: corpus\r\n\r\n"),
                answers: [(501, "method_not_implemented")], stored: 0, says: "the method get is not implemented"),
            Case(
                name: "unknown-method-after-a-request",
                bytes: bytes("GET /healthz HTTP/1.1\r\nHost: corpus\r\n\r\nBREW /v1/receipts HTTP/1.1\r\nHost: corpus\r\n\r\n"),
                answers: [(200, nil), (501, "method_not_implemented")], stored: 0, says: "the method BREW is not implemented"),
            // HTTP/1.0 has no Transfer-Encoding: its framing is faulty (RFC 9112 §6.1), refused and closed.
            Case(
                name: "http10-chunked",
                bytes: bytes(
                    "POST /v1/receipts HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n"
                        + "Connection: keep-alive\r\n\r\n\(form("http10-chunked").count.hex)\r\n\(form("http10-chunked"))\r\n0\r\n\r\n"),
                answers: [bad], stored: 0, says: "an HTTP/1.0 request cannot carry Transfer-Encoding"),
            // Both framings: refused as the smuggling they allow, in either order, and closed.
            Case(
                name: "chunked-then-length",
                bytes: bytes(receipt("", "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n") + "\(form("chunked-then-length").count.hex)\r\n\(form("chunked-then-length"))\r\n0\r\n\r\n"),
                answers: [bad], stored: 0, says: "both Transfer-Encoding and Content-Length"),
            Case(
                name: "length-then-chunked",
                bytes: bytes(receipt("", "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n") + "\(form("length-then-chunked").count.hex)\r\n\(form("length-then-chunked"))\r\n0\r\n\r\n"),
                answers: [bad], stored: 0, says: "both Transfer-Encoding and Content-Length"),
            // An empty coding list is still a Transfer-Encoding: beside Content-Length it is the same smuggling
            // guard (the parser alone took this pair), and alone it frames nothing.
            Case(
                name: "empty-coding-with-length",
                bytes: bytes(receipt("", "Transfer-Encoding:\r\nContent-Length: \(form("empty-coding-with-length").count)\r\n\r\n") + form("empty-coding-with-length")),
                answers: [bad], stored: 0, says: "both Transfer-Encoding and Content-Length"),
            Case(
                name: "empty-coding-alone",
                bytes: bytes(receipt("", "Transfer-Encoding: ,\r\n\r\n") + form("empty-coding-alone")),
                answers: [bad], stored: 0, says: "Transfer-Encoding names no coding"),
            // A tab is whitespace as a space is (RFC 9110 §5.6.3), around either framing's value.
            Case(
                name: "tab-after-content-length",
                bytes: bytes(receipt("", "Content-Length: \(form("tab-after-content-length").count)\t\r\n\r\n") + form("tab-after-content-length")),
                answers: [(204, nil)], stored: 1, closes: false),
            Case(
                name: "tab-after-chunked",
                bytes: bytes(receipt("", "Transfer-Encoding: chunked\t\r\n\r\n") + "\(form("tab-after-chunked").count.hex)\r\n\(form("tab-after-chunked"))\r\n0\r\n\r\n"),
                answers: [(204, nil)], stored: 1, closes: false),
            // Empty elements of the list are no coding (RFC 9110 §5.6.1).
            Case(
                name: "chunked-after-empty-element",
                bytes: bytes(receipt("", "Transfer-Encoding: , chunked\r\n\r\n") + "\(form("chunked-after-empty-element").count.hex)\r\n\(form("chunked-after-empty-element"))\r\n0\r\n\r\n"),
                answers: [(204, nil)], stored: 1, closes: false),
            // And after it, though SwiftNIO's parser alone refuses those (``TrailingListElements``).
            Case(
                name: "chunked-then-empty-element",
                bytes: bytes(receipt("", "Transfer-Encoding: chunked,\r\n\r\n") + "\(form("chunked-then-empty-element").count.hex)\r\n\(form("chunked-then-empty-element"))\r\n0\r\n\r\n"),
                answers: [(204, nil)], stored: 1, closes: false),
            Case(
                name: "chunked-then-empty-elements-pipelined",
                bytes: bytes(
                    receipt("", "Transfer-Encoding: Chunked , ,\r\n\r\n") + "\(form("chunked-then-empty-elements-pipelined").count.hex)\r\n\(form("chunked-then-empty-elements-pipelined"))\r\n0\r\n\r\n"
                        + receipt("", "Content-Length: \(form("chunked-then-empty-elements-pipelined").count)\r\n\r\n") + form("chunked-then-empty-elements-pipelined")),
                answers: [(204, nil), (204, nil)], stored: 2, closes: false),
            Case(
                name: "gzip-coding-alone",
                bytes: bytes(receipt("", "Transfer-Encoding: gzip\r\n\r\n") + form("gzip-coding-alone")),
                answers: [(501, "unsupported_transfer_encoding")], stored: 0),
            // Nothing answers what follows a request that said Connection: close, and its answer says so.
            Case(
                name: "close-then-garbage",
                bytes: bytes(receipt("", "Connection: close\r\nContent-Length: \(form("close-then-garbage").count)\r\n\r\n") + form("close-then-garbage") + "\u{1}\u{2} not http\r\n\r\n"),
                answers: [(204, nil)], stored: 1),
            Case(
                name: "close-then-request",
                bytes: bytes(
                    receipt("", "Connection: close\r\nContent-Length: \(form("close-then-request").count)\r\n\r\n") + form("close-then-request")
                        + receipt("", "Content-Length: \(form("close-then-request").count)\r\n\r\n") + form("close-then-request")),
                answers: [(204, nil)], stored: 1),
            Case(
                name: "router-close-then-garbage",
                bytes: bytes("GET /healthz HTTP/1.1\r\nHost: corpus\r\nConnection: close\r\n\r\n\u{1}\u{2} not http\r\n\r\n"),
                answers: [(200, nil)], stored: 0),
            Case(name: "target-too-long", bytes: bytes("GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: corpus\r\n\r\n"), answers: [(431, "headers_too_large")], stored: 0),
            Case(
                name: "good-then-broken",
                bytes: bytes(receipt("", "Content-Length: \(form("good-then-broken").count)\r\n\r\n") + form("good-then-broken") + receipt("", "Content-Length: zz\r\n\r\n")),
                answers: [(204, nil), bad], stored: 1),
            // Text that is not text, said as such.
            Case(name: "invalid-utf8", bytes: post("application/json", bytes(#"{"push_id":"corpus-invalid-utf8"#) + [0xFF, 0xFE] + bytes(#""}"#)), answers: [(400, "invalid_utf8")], stored: 0, closes: false),
            Case(name: "raw-nul", bytes: post("application/json", bytes(#"{"push_id":"corpus-raw-nul"#) + [0] + bytes(#""}"#)), answers: [(400, "invalid_characters")], stored: 0, closes: false),
            Case(name: "lone-surrogate", bytes: post("application/json", bytes(#"{"push_id":"corpus-lone-surrogate\ud800"}"#)), answers: [(400, "invalid_utf8")], stored: 0, closes: false),
            Case(name: "huge-number", bytes: post("application/json", bytes(json("huge-number", #","ts":1e309"#))), answers: [(400, "bad_timestamp")], stored: 0, closes: false),
            // A byte-order mark is skipped before every kind of body.
            Case(name: "bom-json", bytes: post("application/json", [0xEF, 0xBB, 0xBF] + bytes(json("bom-json"))), answers: [(204, nil)], stored: 1, closes: false),
            Case(name: "bom-ndjson", bytes: post(ndjsonType, [0xEF, 0xBB, 0xBF] + ndjson("bom-ndjson", lines: 2)), answers: [(200, nil)], stored: 2, closes: false),
            Case(name: "bom-form", bytes: post("application/x-www-form-urlencoded", [0xEF, 0xBB, 0xBF] + bytes(form("bom-form"))), answers: [(204, nil)], stored: 1, closes: false),
        ]
            + goodHosts.enumerated().map { index, host in
                Case(name: "good-host-\(index)", bytes: bytes(hosted(host, "good-host-\(index)")), answers: [(204, nil)], stored: 1, closes: false)
            }
    }
}

extension Int {
    /// The number in hex, as a chunk size is written.
    fileprivate var hex: String { String(self, radix: 16) }
}
