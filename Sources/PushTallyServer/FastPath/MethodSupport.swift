/// Request methods as RFC 9110 §9.1 sorts them: a method the server knows but a route does not take is a 405
/// with `Allow` (the router's answer, for every method SwiftNIO's parser knows: RFC 9110's, WebDAV's and the
/// like); a method token the parser does not know (`FOO`, or `get`: methods are case-sensitive) is not
/// implemented anywhere here, a 501. Bytes that are no token at all stay a 400.
enum MethodSupport {
    /// The 501 for a method token no route here implements.
    static func notImplemented(_ method: String) -> APIError {
        APIError(
            .notImplemented, "method_not_implemented",
            "the method \(method) is not implemented here (methods are case-sensitive); the API takes GET, HEAD, POST, PUT, DELETE and OPTIONS",
            field: "method")
    }

    /// Whether `bytes` are a method token (RFC 9110 §5.6.2's `token`): a method the parser did not know, as
    /// opposed to bytes that are no method at all.
    static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenCharacter)
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
