import NIOHTTP1

extension APIError {
    /// The answer to bytes SwiftNIO's HTTP/1 parser refused: the client's mistake, never a 5xx, said in words.
    init(_ error: HTTPParserError) {
        switch error {
        case .headerOverflow:
            self.init(
                .requestHeaderFieldsTooLarge, "headers_too_large",
                "the request line or header fields are longer than the collector reads")
        case .invalidChunkSize:
            self.init(.badRequest, "malformed_http", "a chunk size of the chunked body is not a hexadecimal number")
        case .invalidEOFState:
            self.init(.badRequest, "malformed_http", "the connection ended in the middle of a request")
        case .invalidContentLength:
            self.init(.badRequest, "malformed_http", "Content-Length is not a number", field: "Content-Length")
        case .unexpectedContentLength:
            self.init(
                .badRequest, "malformed_http", "Content-Length given twice, or beside Transfer-Encoding", field: "Content-Length")
        case .invalidMethod:
            self.init(.badRequest, "malformed_http", "the request method is not a valid HTTP token")
        case .invalidURL:
            self.init(.badRequest, "malformed_http", "the request target is not a valid URL")
        case .invalidVersion:
            self.init(.badRequest, "malformed_http", "the HTTP version is not HTTP/1.0 or HTTP/1.1")
        case .invalidHeaderToken:
            self.init(.badRequest, "malformed_http", "a header field name or value holds a character HTTP does not allow")
        case .lfExpected, .strictModeAssertion:
            self.init(.badRequest, "malformed_http", "a line of the request does not end with CRLF")
        default:
            self.init(.badRequest, "malformed_http", "the request is not valid HTTP/1.1 (\(error))")
        }
    }
}
