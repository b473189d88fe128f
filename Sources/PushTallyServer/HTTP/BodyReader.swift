import Hummingbird
import NIOCore
import PushTallyCore

/// Reads a request body under a byte limit that holds both on the wire and after gzip inflation,
/// so a gzip bomb costs at most the limit in memory before it is refused.
struct BodyReader: Sendable {
    let maxBytes: Int

    /// The whole body, inflated, within the limit.
    func read(_ request: Request) async throws -> ByteBuffer {
        try inflate(try await collect(request), contentEncoding: request.headers[.contentEncoding])
    }

    /// `body` without a leading UTF-8 byte-order mark: one rule for every body (JSON, NDJSON, forms, push
    /// records), as RFC 8259 §8.1 lets a reader ignore the mark, and Windows tools write it.
    static func withoutByteOrderMark(_ body: ByteBuffer) -> ByteBuffer {
        // Read in place: this runs for every body on the ingest hot path, where a copied array would allocate.
        let start = body.readerIndex
        guard body.readableBytes >= 3, body.getInteger(at: start, as: UInt8.self) == 0xEF,
            body.getInteger(at: start + 1, as: UInt8.self) == 0xBB, body.getInteger(at: start + 2, as: UInt8.self) == 0xBF
        else { return body }
        var body = body
        body.moveReaderIndex(forwardBy: 3)
        return body
    }

    /// The whole body as sent, refused when its declared length or its length on the wire is over the limit.
    func collect(_ request: Request) async throws -> ByteBuffer {
        try checkDeclaredLength(request.headers)
        do {
            return try await request.body.collect(upTo: maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        } catch is NIOTooManyBytesError {
            // A chunked body has no Content-Length to refuse early: it is cut off at the limit instead.
            throw tooLarge
        }
    }

    /// Refuses a body whose declared `Content-Length` is over the limit before a byte of it is read.
    func checkDeclaredLength(_ headers: HTTPFields) throws {
        if !admitsDeclaredLength(headers) { throw tooLarge }
    }

    /// Whether the declared `Content-Length`, if any, is within the limit.
    func admitsDeclaredLength(_ headers: HTTPFields) -> Bool {
        guard let length = headers.value(of: .contentLength).flatMap(Int.init) else { return true }
        return length <= maxBytes
    }

    /// Whether a body of `bytes` so far is still within the limit.
    func admits(bytes: Int) -> Bool {
        bytes <= maxBytes
    }

    /// Whether to stop reading a refused body that goes on past `bytes`: past four times the limit, reading on
    /// only serves whoever is flooding the connection; short of it, the client should get the 413, not a reset.
    func givesUpDiscarding(after bytes: Int) -> Bool {
        bytes > 4 * maxBytes
    }

    /// The body as sent (`identity`) or gzip-inflated, never past the limit.
    func inflate(_ body: ByteBuffer, contentEncoding: String?) throws -> ByteBuffer {
        guard try isGzip(contentEncoding: contentEncoding) else { return Self.withoutByteOrderMark(body) }
        do {
            return Self.withoutByteOrderMark(try GzipBody.inflate(body, maxBytes: maxBytes))
        } catch .tooLarge {
            throw APIError(.contentTooLarge, "body_too_large", "the body inflates past \(maxBytes) bytes")
        } catch .malformed(let reason) {
            throw APIError(.badRequest, "malformed_gzip", "the body is not valid gzip: \(reason)")
        }
    }

    /// Whether a body of `contentEncoding` is gzip; 415 for an encoding this reader cannot undo, known before a
    /// byte of the body is read (`Expect: 100-continue` is refused on it).
    func isGzip(contentEncoding: String?) throws -> Bool {
        switch contentEncoding?.lowercased() {
        case nil, "identity": false
        case "gzip", "x-gzip": true
        case let other?:
            throw APIError(.unsupportedMediaType, "unsupported_content_encoding", "Content-Encoding \(other) is not supported; use gzip")
        }
    }

    /// The 413 for a body over the limit.
    var tooLarge: APIError {
        APIError(.contentTooLarge, "body_too_large", "the body is larger than \(maxBytes) bytes")
    }
}

/// The media type of a request or an `Accept` entry, without parameters, lowercased.
///
/// Plain byte work rather than Foundation's trimming: it runs for every receipt on the ingest hot path.
func mediaType(_ header: String?) -> String? {
    guard let header else { return nil }
    var utf8 = header.utf8[...]
    if let semicolon = utf8.firstIndex(of: UInt8(ascii: ";")) { utf8 = utf8[..<semicolon] }
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    while let first = utf8.first, isSpace(first) { utf8 = utf8.dropFirst() }
    while let last = utf8.last, isSpace(last) { utf8 = utf8.dropLast() }
    guard !utf8.isEmpty else { return nil }
    if !utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) { return String(Substring(utf8)) }
    return String(decoding: utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
}
