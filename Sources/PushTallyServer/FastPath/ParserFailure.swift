import NIOCore
import NIOHTTP1

/// The refusal of bytes SwiftNIO's parser refused, told from the bytes themselves where its error alone names
/// the wrong problem: llhttp reports a request with both `Transfer-Encoding` and `Content-Length` as a bad
/// `Content-Length` (or as nothing in particular), and a method token it does not know as no method at all.
enum ParserFailure {
    /// - Parameter received: the bytes of the read the parser failed in, when known.
    static func refusal(_ error: HTTPParserError, received: ByteBuffer?) -> APIError {
        guard let received else { return APIError(error) }
        let heads = received.readableBytesView.pieces(between: Array("\r\n\r\n".utf8)).map { head in
            head.pieces(between: Array("\r\n".utf8))
        }
        switch error {
        case .invalidMethod:
            // The failed request line starts a head, the last in the read whose method is not one the parser
            // took (requests answered before it share the read); a token there is a method it does not know.
            let methods = heads.compactMap { lines in lines.first?.split(separator: UInt8(ascii: " "), maxSplits: 1).first }
            if let method = methods.last(where: { !knownToTheParser.contains(String(decoding: $0, as: UTF8.self)) }), MethodSupport.isToken(method) {
                return MethodSupport.notImplemented(String(decoding: method, as: UTF8.self))
            }
        case .invalidContentLength, .unexpectedContentLength, .unknown:
            let named = heads.map { lines in (lines.contains { $0.startsWithName("transfer-encoding") }, lines.contains { $0.startsWithName("content-length") }) }
            if named.contains(where: { $0.0 && $0.1 }) {
                return .bothFramings
            }
            if error == .unknown, heads.contains(where: { lines in lines.contains(where: \.endsChunkedThenEmpty) }) {
                return APIError(
                    .badRequest, "malformed_http",
                    "Transfer-Encoding ends with an empty list element after chunked, which the HTTP parser in front of PushTally (SwiftNIO's llhttp) refuses though RFC 9110 §5.6.1 allows it; send chunked alone",
                    field: "Transfer-Encoding")
            }
            if error == .unknown, named.contains(where: { $0.0 }) {
                return APIError(
                    .badRequest, "malformed_http",
                    "Transfer-Encoding does not end with chunked, so the body's length is unknown; send the body chunked or with a Content-Length",
                    field: "Transfer-Encoding")
            }
        default:
            break
        }
        return APIError(error)
    }

    /// The methods of requests that may come before the refused one in the same read (SwiftNIO's parser knows
    /// more, but clients of this API send these).
    private static let knownToTheParser: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]
}

extension Collection<UInt8> {
    /// Whether a header line begins with the field name `lowercase` and its colon, in any case.
    fileprivate func startsWithName(_ lowercase: String) -> Bool {
        let name = Array(lowercase.utf8)
        guard count > name.count else { return false }
        return zip(self, name + [UInt8(ascii: ":")]).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    /// Whether a header line is `Transfer-Encoding` whose non-empty elements are `chunked` alone, an empty one
    /// after it (`chunked,`): the list llhttp refuses.
    fileprivate var endsChunkedThenEmpty: Bool {
        guard startsWithName("transfer-encoding"), let colon = firstIndex(of: UInt8(ascii: ":")) else { return false }
        let elements = self[index(after: colon)...].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { String(decoding: $0.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }, as: UTF8.self).lowercased() }
        return elements.filter { !$0.isEmpty } == ["chunked"] && elements.last?.isEmpty == true
    }

    /// Split at every occurrence of `separator` (several bytes long), empty pieces kept out.
    fileprivate func pieces(between separator: [UInt8]) -> [SubSequence] {
        var pieces: [SubSequence] = []
        var start = startIndex
        var index = startIndex
        while index != endIndex {
            if self[index...].starts(with: separator) {
                if start != index { pieces.append(self[start..<index]) }
                index = self.index(index, offsetBy: separator.count)
                start = index
            } else {
                index = self.index(after: index)
            }
        }
        if start != endIndex { pieces.append(self[start..<endIndex]) }
        return pieces
    }
}

extension APIError {
    /// A request framed by both `Transfer-Encoding` and `Content-Length` (RFC 9112 §6.3), refused whoever finds it.
    static let bothFramings = APIError(
        .badRequest, "malformed_http",
        "the request has both Transfer-Encoding and Content-Length, which could frame its body two ways (request smuggling); send one of them",
        field: "Transfer-Encoding")
}
