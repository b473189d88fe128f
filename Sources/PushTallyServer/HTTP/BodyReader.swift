import CompressNIO
import Hummingbird
import NIOCore
import PushTallyCore

/// Reads a request body under a byte limit that holds both on the wire and after gzip inflation,
/// so a gzip bomb costs at most the limit in memory before it is refused.
struct BodyReader: Sendable {
    let maxBytes: Int

    func read(_ request: Request) async throws -> ByteBuffer {
        try checkDeclaredLength(request.headers)
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        } catch is NIOTooManyBytesError {
            // A chunked body has no Content-Length to refuse early: it is cut off at the limit instead.
            throw tooLarge
        }
        return try inflate(body, contentEncoding: request.headers[.contentEncoding])
    }

    /// Refuses a body whose declared `Content-Length` is over the limit before a byte of it is read.
    func checkDeclaredLength(_ headers: HTTPFields) throws {
        if let length = headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw tooLarge
        }
    }

    /// The body as sent (`identity`) or gzip-inflated, never past the limit.
    func inflate(_ body: ByteBuffer, contentEncoding: String?) throws -> ByteBuffer {
        switch contentEncoding?.lowercased() {
        case nil, "identity":
            return body
        case "gzip", "x-gzip":
            do {
                var body = body
                return try body.decompress(with: .gzip(), maxSize: maxBytes)
            } catch let error as CompressNIOError where error == .bufferOverflow {
                throw APIError(.contentTooLarge, "body_too_large", "the body inflates past \(maxBytes) bytes")
            } catch {
                throw APIError(.badRequest, "malformed_gzip", "the body is not valid gzip")
            }
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
