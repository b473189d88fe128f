/// What a webhook URL's text must be before it is parsed: Foundation's parser percent-encodes a raw space or line
/// break it meets and reads a port it cannot hold as none, so the receiver called would not be the one written.
enum WebhookURLText {
    /// Why `text` is no URL to deliver to, or `nil`: a space or control character anywhere (a URL carries them
    /// percent-encoded), or a port that is not a number from 1 to 65535.
    static func problem(_ text: String, field: String) -> String? {
        if let byte = text.utf8.first(where: { $0 <= 0x20 || $0 == 0x7F }) {
            let name = switch byte {
            case UInt8(ascii: " "): "a space"
            case UInt8(ascii: "\r"): "a carriage return (CR)"
            case UInt8(ascii: "\n"): "a line feed (LF)"
            case UInt8(ascii: "\t"): "a tab"
            default: "the control character 0x\(String(byte, radix: 16, uppercase: true))"
            }
            return "\(field) holds \(name); percent-encode it (a space is %20)"
        }
        guard let port = port(text), !port.isEmpty else { return nil }
        let significant = port.drop { $0 == "0" }
        guard port.allSatisfy(\.isASCIIDigit), significant.count <= 5, let value = Int(significant.isEmpty ? "0" : String(significant)),
            (1...65535).contains(value)
        else {
            return "\(field) has the port \(port); a port is a number from 1 to 65535"
        }
        return nil
    }

    /// The port as written in the authority (after `scheme://`, credentials and an IP literal's brackets), `nil`
    /// when none is written.
    private static func port(_ text: String) -> Substring? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let rest = text[schemeEnd.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            authority = authority[authority.index(after: close)...]
        }
        guard let colon = authority.lastIndex(of: ":") else { return nil }
        return authority[authority.index(after: colon)...]
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
