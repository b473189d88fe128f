import NIOHTTP1

/// The rules of RFC 9112 that a request head can break after SwiftNIO's parser accepted it, checked once for
/// both paths (every head passes the fast path first).
extension HTTPRequestHead {
    /// Why the connection cannot go on after this head, or `nil` when it conforms:
    /// - `Host` missing from an HTTP/1.1 request, given more than once, or not a host (§3.2: 400);
    /// - `Transfer-Encoding` in an HTTP/1.0 request, whose framing is then faulty (§6.1: 400), beside
    ///   `Content-Length` (§6.3: the request-smuggling guard, which the parser keeps too but not for an empty
    ///   coding list), or naming no coding at all;
    /// - a transfer coding other than `chunked` (§6.1: 501, as no other is understood here), or `chunked` not
    ///   last or given twice, which leaves the body's length unknown (§6.3: 400). Empty list elements
    ///   (`, chunked`) are no coding (RFC 9110 §5.6.1).
    var conformanceRefusal: APIError? {
        var hosts = 0
        var host = ""
        var codings: [Substring] = []
        var hasTransferEncoding = false
        var hasContentLength = false
        for (name, value) in headers {
            if Self.isName(name, "host") {
                hosts += 1
                host = value
            } else if Self.isName(name, "content-length") {
                hasContentLength = true
            } else if Self.isName(name, "transfer-encoding") {
                hasTransferEncoding = true
                for coding in value.split(separator: ",") {
                    let trimmed = coding.trimmingSpaces
                    if !trimmed.isEmpty { codings.append(trimmed) }
                }
            }
        }
        if hosts > 1 {
            return APIError(.badRequest, "malformed_http", "the request has \(hosts) Host fields; HTTP/1.1 allows one", field: "Host")
        }
        if hosts == 0, version.major == 1, version.minor >= 1 {
            return APIError(.badRequest, "malformed_http", "an HTTP/1.1 request needs a Host field", field: "Host")
        }
        if hosts == 1, let problem = HostFieldValue.problem(host[...].trimmingSpaces) {
            return APIError(.badRequest, "malformed_http", "Host is not a host[:port]: \(problem)", field: "Host")
        }
        if hasTransferEncoding, version.major == 1, version.minor == 0 {
            return APIError(
                .badRequest, "malformed_http",
                "an HTTP/1.0 request cannot carry Transfer-Encoding, so its body's framing is faulty; send HTTP/1.1, or the body with a Content-Length",
                field: "Transfer-Encoding")
        }
        if hasTransferEncoding, hasContentLength {
            // The parser refuses the pair itself, but not when the coding list is empty.
            return .bothFramings
        }
        if hasTransferEncoding, codings.isEmpty {
            return APIError(
                .badRequest, "malformed_http", "Transfer-Encoding names no coding; send the body chunked or with a Content-Length",
                field: "Transfer-Encoding")
        }
        guard !codings.isEmpty else { return nil }
        if let unknown = codings.first(where: { !Self.isName($0, "chunked") }) {
            return APIError(
                .notImplemented, "unsupported_transfer_encoding",
                "Transfer-Encoding \(unknown) is not supported; send the body chunked or with a Content-Length (gzip goes in Content-Encoding)",
                field: "Transfer-Encoding")
        }
        if codings.count > 1 {
            return APIError(.badRequest, "malformed_http", "Transfer-Encoding names chunked more than once", field: "Transfer-Encoding")
        }
        return nil
    }

    /// ASCII case-insensitive equality against a lower-case name: a field name, or a list element of one's value.
    static func isName(_ name: some StringProtocol, _ lowercase: String) -> Bool {
        let (received, expected) = (name.utf8, lowercase.utf8)
        guard received.count == expected.count else { return false }
        var next = expected.startIndex
        for byte in received {
            if byte | 0x20 != expected[next] { return false }
            next = expected.index(after: next)
        }
        return true
    }
}

extension Substring {
    /// Without the spaces and tabs around it (optional whitespace in a field's list).
    fileprivate var trimmingSpaces: Substring {
        // By bytes, not characters: a space or tab is one byte, and a field value is read once per request.
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, isSpace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return self[start..<end]
    }
}
