import CZlib
import NIOCore

/// A gzip request body inflated whole: every member (RFC 1952 §2.2: a gzip file is a series of members, as
/// `cat a.gz b.gz` and pigz write them), each checked against its CRC-32 and length trailer, and nothing else.
///
/// Whatever is acknowledged must be what was sent, so a body is refused outright when its last member is cut
/// short (a missing or partial trailer would otherwise go unchecked), when bytes that are not a gzip member
/// follow the last one, or when it inflates past the limit.
enum GzipBody {
    enum Failure: Error, Equatable {
        /// Not gzip as RFC 1952 has it; the reason says where it broke.
        case malformed(String)
        /// It inflates past the limit.
        case tooLarge
    }

    /// The inflated bytes of every member of `body`, at most `maxBytes` of them.
    static func inflate(_ body: ByteBuffer, maxBytes: Int) throws(Failure) -> ByteBuffer {
        var stream = z_stream()
        // 16 + 15: a gzip wrapper (not zlib's, not raw deflate) with the largest window.
        guard CZlib_inflateInit2(&stream, 16 + 15) == Z_OK else { throw .malformed("zlib could not start") }
        defer { inflateEnd(&stream) }

        var output = ByteBufferAllocator().buffer(capacity: min(maxBytes, max(4096, body.readableBytes * 4)))
        let outcome: Result<Void, Failure> = body.withUnsafeReadableBytes { input in
            guard let start = input.baseAddress, !input.isEmpty else { return .failure(.malformed("the body is empty")) }
            stream.next_in = UnsafeMutablePointer(mutating: start.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            var members = 0
            while true {
                // Room for one byte past the limit, so that going over it is seen, not an exact fit.
                let allowed = maxBytes + 1 - output.readableBytes
                if output.writableBytes == 0 {
                    output.reserveCapacity(minimumWritableBytes: min(allowed, max(4096, output.readableBytes)))
                }
                let room = min(output.writableBytes, allowed)
                var code: Int32 = Z_OK
                output.writeWithUnsafeMutableBytes(minimumWritableBytes: 0) { free in
                    stream.next_out = free.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = uInt(room)
                    code = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return room - Int(stream.avail_out)
                }
                if output.readableBytes > maxBytes { return .failure(.tooLarge) }
                switch code {
                case Z_STREAM_END:
                    members += 1
                    guard stream.avail_in > 0 else { return .success(()) }
                    // Only another member may follow: its magic bytes, then zlib reads its header.
                    let next = UnsafeBufferPointer(start: stream.next_in, count: Int(stream.avail_in))
                    guard next.count >= 2 ? next[0] == 0x1F && next[1] == 0x8B : next.first == 0x1F else {
                        return .failure(.malformed("\(next.count) bytes after gzip member \(members) are not another gzip member"))
                    }
                    inflateReset(&stream)
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(.malformed("the gzip stream ends early: member \(members + 1) has no end or no CRC-32 and length trailer"))
                case Z_BUF_ERROR:
                    continue
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                    return .failure(.malformed("gzip member \(members + 1) is corrupt: \(reason)"))
                }
            }
        }
        try outcome.get()
        return output
    }
}
