/// Which request methods are known here (RFC 9110 §9.1): the methods RFC 9110 defines, and PATCH. A route
/// refuses a known method it does not take with 405 and `Allow`; a method no route knows is a 501, whether
/// SwiftNIO's parser knew its name (`PROPFIND`) or refused it (`FOO`).
enum MethodSupport {
    static let known: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    /// The 501 for a method token no route here implements; `nil` for a known method.
    static func refusal(_ method: String) -> APIError? {
        guard !known.contains(method) else { return nil }
        return APIError(
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
