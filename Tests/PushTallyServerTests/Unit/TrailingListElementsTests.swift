import NIOCore
import NIOEmbedded
import Testing

@testable import PushTallyServer

/// The commas after `chunked` in a request head's `Transfer-Encoding`, and the tabs around its value and
/// `Content-Length`'s, become spaces before the parser reads them, an `Upgrade` field becomes `Ignored`, and
/// nothing else changes: not a body byte (whatever the body says), not a length, not a byte after something the
/// handler does not follow; whatever the read boundaries.
@Suite struct TrailingListElementsTests {
    /// Pipelined requests: a body that quotes the header, a chunked body quoting it again with trailers, a request
    /// without a body, a list with two empty elements after its last coding, a request that asks to upgrade, and
    /// tabs around both framings' values.
    static let pipelined: (sent: String, read: String) = {
        let quoted = "x\r\nTransfer-Encoding: chunked,\r\n\r\n"
        let sent =
            "POST /v1/receipts HTTP/1.1\r\nHost: a\r\nContent-Length: \(quoted.utf8.count)\r\n\r\n\(quoted)"
            + "\r\nPOST /v1/receipts HTTP/1.1\r\nHost: a\r\ntransfer-encoding: chunked,\r\n\r\n"
            + "\(String(quoted.utf8.count, radix: 16));ext=1\r\n\(quoted)\r\n0\r\nTrailer: chunked,\r\n\r\n"
            + "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
            + "POST /v1/receipts HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, CHUNKED , ,\r\n\r\n5\r\nabcde\r\n0\r\n\r\n"
            + "POST /v1/receipts HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nupgrade: h2c\r\nContent-Length:\t3\t\r\n\r\nabc"
            + "POST /v1/receipts HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\tchunked\t\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        let read =
            "POST /v1/receipts HTTP/1.1\r\nHost: a\r\nContent-Length: \(quoted.utf8.count)\r\n\r\n\(quoted)"
            + "\r\nPOST /v1/receipts HTTP/1.1\r\nHost: a\r\ntransfer-encoding: chunked \r\n\r\n"
            + "\(String(quoted.utf8.count, radix: 16));ext=1\r\n\(quoted)\r\n0\r\nTrailer: chunked,\r\n\r\n"
            + "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
            + "POST /v1/receipts HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, CHUNKED    \r\n\r\n5\r\nabcde\r\n0\r\n\r\n"
            + "POST /v1/receipts HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nIgnored: h2c\r\nContent-Length: 3 \r\n\r\nabc"
            + "POST /v1/receipts HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked \r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        return (sent, read)
    }()

    @Test func onlyTheHeadsCommasChangeAtEverySplit() throws {
        let sent = Array(Self.pipelined.sent.utf8)
        #expect(try Self.through([sent]) == Array(Self.pipelined.read.utf8))
        for split in 1..<sent.count {
            let read = try Self.through([Array(sent[..<split]), Array(sent[split...])])
            #expect(read == Array(Self.pipelined.read.utf8), "split at \(split)")
        }
    }

    @Test func randomChunkingsReadTheSame() throws {
        let sent = Array(Self.pipelined.sent.utf8)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var pieces: [[UInt8]] = []
            var start = 0
            while start < sent.count {
                let end = min(sent.count, start + Int.random(in: 1...40, using: &generator))
                pieces.append(Array(sent[start..<end]))
                start = end
            }
            #expect(try Self.through(pieces) == Array(Self.pipelined.read.utf8))
        }
    }

    /// Past anything it does not follow exactly, the handler changes nothing more on the connection: the parser
    /// answers as it would without it.
    @Test(arguments: [
        "POST / HTTP/1.1\r\nHost: a\r\nX: folded\r\n continued\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\nTransfer-Encoding: chunked,\r\n\r\n",
        "CONNECT a:443 HTTP/1.1\r\nHost: a\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
        "POST / HTTP/2.0\r\nHost: a\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ])
    func whatItDoesNotFollowEndsItsWork(_ opening: String) throws {
        let later = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked,\r\n\r\n0\r\n\r\n"
        let sent = Array((opening + later).utf8)
        #expect(try Self.through([sent]) == sent)
    }

    /// A head line cut off by the close still reaches the parser, as it came.
    @Test func aLineCutOffByTheCloseIsPassedOn() throws {
        let channel = EmbeddedChannel(handler: TrailingListElements())
        try channel.writeInbound(ByteBuffer(string: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Enc"))
        #expect(try Self.drained(channel) == Array("POST / HTTP/1.1\r\nHost: a\r\n".utf8))
        channel.pipeline.fireChannelInactive()
        #expect(try Self.drained(channel) == Array("Transfer-Enc".utf8))
    }

    /// A line longer than the bound is not held: it and everything after it pass untouched.
    @Test func aLineLongerThanTheBoundIsNotHeld() throws {
        let channel = EmbeddedChannel(handler: TrailingListElements())
        let long = "POST / HTTP/1.1\r\nX: " + String(repeating: "a", count: TrailingListElements.lineBound + 1)
        try channel.writeInbound(ByteBuffer(string: long))
        #expect(try Self.drained(channel) == Array(long.utf8))
        try channel.writeInbound(ByteBuffer(string: "\r\nTransfer-Encoding: chunked,\r\n\r\n"))
        #expect(try Self.drained(channel) == Array("\r\nTransfer-Encoding: chunked,\r\n\r\n".utf8))
    }

    private static func through(_ pieces: [[UInt8]]) throws -> [UInt8] {
        let channel = EmbeddedChannel(handler: TrailingListElements())
        var read: [UInt8] = []
        for piece in pieces {
            try channel.writeInbound(ByteBuffer(bytes: piece))
            read += try drained(channel)
        }
        _ = try channel.finish()
        return read
    }

    private static func drained(_ channel: EmbeddedChannel) throws -> [UInt8] {
        var read: [UInt8] = []
        while let buffer = try channel.readInbound(as: ByteBuffer.self) { read += buffer.readableBytesView }
        return read
    }
}
