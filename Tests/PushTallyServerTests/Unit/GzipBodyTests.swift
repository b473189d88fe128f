import NIOCore
import Testing

@testable import PushTallyServer

/// Request bodies in gzip: every member, each checked whole, nothing after the last.
@Suite struct GzipBodyTests {
    /// `{"push_id":"a"}\n` and `{"push_id":"b"}\n`, each one gzip member as Python's `gzip.compress(mtime=0)`
    /// writes it: bytes from another implementation than the one under test.
    static let memberA: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x56, 0x2a, 0x28, 0x2d, 0xce, 0x88, 0xcf,
        0x4c, 0x51, 0xb2, 0x52, 0x4a, 0x54, 0xaa, 0xe5, 0x02, 0x00, 0x79, 0xdc, 0x99, 0xd5, 0x10, 0x00, 0x00, 0x00,
    ]
    static let memberB: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x56, 0x2a, 0x28, 0x2d, 0xce, 0x88, 0xcf,
        0x4c, 0x51, 0xb2, 0x52, 0x4a, 0x52, 0xaa, 0xe5, 0x02, 0x00, 0x97, 0x73, 0x2c, 0xc7, 0x10, 0x00, 0x00, 0x00,
    ]

    func inflate(_ bytes: [UInt8], maxBytes: Int = 1 << 20) throws(GzipBody.Failure) -> String {
        String(buffer: try GzipBody.inflate(ByteBuffer(bytes: bytes), maxBytes: maxBytes))
    }

    @Test func everyMemberIsInflatedInOrder() throws {
        #expect(try inflate(Self.memberA) == #"{"push_id":"a"}"# + "\n")
        #expect(try inflate(Self.memberA + Self.memberB + Self.memberA) == #"{"push_id":"a"}"# + "\n" + #"{"push_id":"b"}"# + "\n" + #"{"push_id":"a"}"# + "\n")
    }

    /// Every proper prefix of a valid body is refused: a cut anywhere, in a header, the data or the trailer.
    @Test func everyCutShortBodyIsRefused() {
        let body = Self.memberA + Self.memberB
        for length in 0..<body.count where length != Self.memberA.count {
            #expect(throws: GzipBody.Failure.self, "cut at \(length) of \(body.count)") { try inflate(Array(body.prefix(length))) }
        }
    }

    @Test func bytesAfterTheLastMemberAreRefused() {
        for tail: [UInt8] in [[0], [0, 0, 0, 0], [0x1f], Array("garbage".utf8), [0x1f, 0x8b]] {
            #expect(throws: GzipBody.Failure.self, "\(tail)") { try inflate(Self.memberA + tail) }
        }
    }

    @Test func aWrongCheckIsRefused() {
        for offset in [8, 4, 1] {
            var body = Self.memberA
            body[body.count - offset] ^= 0x01
            #expect(throws: GzipBody.Failure.self, "byte \(offset) from the end") { try inflate(body) }
        }
    }

    @Test func theLimitHoldsAcrossMembersAndAnExactFitPasses() throws {
        let one = #"{"push_id":"a"}"#.utf8.count + 1
        #expect(try inflate(Self.memberA, maxBytes: one).utf8.count == one)
        #expect(throws: GzipBody.Failure.tooLarge) { try inflate(Self.memberA, maxBytes: one - 1) }
        #expect(try inflate(Self.memberA + Self.memberA, maxBytes: 2 * one).utf8.count == 2 * one)
        #expect(throws: GzipBody.Failure.tooLarge) { try inflate(Self.memberA + Self.memberA, maxBytes: 2 * one - 1) }
    }
}
