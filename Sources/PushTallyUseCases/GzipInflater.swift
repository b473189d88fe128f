import CZlib

/// Gzip as RFC 1952 has it, inflated as a stream: every member (a gzip file is a series of members, as
/// `cat a.gz b.gz` and pigz write them), each checked against its CRC-32 and length trailer, and nothing else.
///
/// Shared by request bodies and `import-events`: compress-nio inflates one member and cannot tell a stream that
/// ended from one cut short. Whatever is acknowledged or imported must be what was sent, so a stream is refused
/// when its last member is cut short (a missing or partial trailer would otherwise go unchecked), when bytes that
/// are not a gzip member follow the last one (zlib checks the next member's header), or when it is empty.
public final class GzipInflater {
    public enum Failure: Error, Equatable {
        /// Not gzip as RFC 1952 has it; the reason says where it broke.
        case malformed(String)
        /// The caller's limit was passed (a request body's, checked by its caller).
        case tooLarge
    }

    private var stream = z_stream()
    private var members = 0
    /// Bytes of a member have been read and its end has not: finishing now would be a stream cut short.
    private var inMember = false
    private var window = [UInt8](repeating: 0, count: 64 * 1024)

    public init() throws(Failure) {
        // 16 + 15: a gzip wrapper (not zlib's, not raw deflate) with the largest window.
        guard CZlib_inflateInit2(&stream, 16 + 15) == Z_OK else { throw .malformed("zlib could not start") }
    }

    deinit { inflateEnd(&stream) }

    /// Inflates `input`, handing each piece of output to `output` as it comes.
    public func feed(_ input: UnsafeRawBufferPointer, _ output: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        guard let start = input.baseAddress, !input.isEmpty else { return }
        stream.next_in = UnsafeMutablePointer(mutating: start.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        defer {
            stream.next_in = nil
            stream.avail_in = 0
        }
        while stream.avail_in > 0 {
            if !inMember {
                // zlib reads the next member's header and refuses anything that is not one.
                if members > 0 { inflateReset(&stream) }
                inMember = true
            }
            let unread = stream.avail_in
            let (code, produced) = window.withUnsafeMutableBytes { free -> (Int32, Int) in
                stream.next_out = free.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(free.count)
                let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (code, free.count - Int(stream.avail_out))
            }
            if produced > 0 {
                try window.withUnsafeBytes { bytes in
                    Result { () throws(Failure) in try output(UnsafeRawBufferPointer(rebasing: bytes[..<produced])) }
                }.get()
            }
            switch code {
            case Z_STREAM_END:
                members += 1
                inMember = false
            case Z_OK, Z_BUF_ERROR:
                // With a whole window free, no progress at all means zlib can go no further with these bytes.
                if produced == 0, stream.avail_in == unread { throw .malformed("gzip member \(members + 1) cannot be read on") }
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                throw members > 0 && produced == 0 && code == Z_DATA_ERROR && reason == "incorrect header check"
                    ? .malformed("the bytes after gzip member \(members) are not another gzip member")
                    : .malformed("gzip member \(members + 1) is corrupt: \(reason)")
            }
        }
    }

    /// The stream ended: refused unless it held at least one member and its last one ended whole.
    public func finish() throws(Failure) {
        if inMember {
            throw .malformed("the gzip stream ends early: member \(members + 1) has no end or no CRC-32 and length trailer")
        }
        if members == 0 { throw .malformed("the stream is empty") }
    }
}
