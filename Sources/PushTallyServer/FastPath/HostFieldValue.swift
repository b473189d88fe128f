#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// RFC 9112 §3.2's test of a `Host` field value: `uri-host [ ":" port ]`, the host a reg-name, an IPv4 address or
/// a bracketed IP literal, the port digits from 0 to 65535. SwiftNIO's parser takes any field value, and a Host
/// it cannot be (`x y`, `u@x`, `x:99999`) is a 400 the RFC asks for.
enum HostFieldValue {
    /// Why `value` is no Host, or `nil` when it is one (the empty value included: the RFC's for a target without
    /// an authority).
    static func problem(_ value: Substring) -> String? {
        var value = value
        // Read in place: every request's Host passes here, and a copy of its bytes would be an allocation each.
        return value.withUTF8 { problem(in: $0) }
    }

    private static func problem(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var hostEnd = bytes.count
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else {
                return "its IP literal has no closing ]"
            }
            guard isIPLiteral(bytes[1..<close]) else { return "\(quoted(bytes[0...close])) is not an IPv6 address" }
            hostEnd = close + 1
            guard hostEnd == bytes.count || bytes[hostEnd] == UInt8(ascii: ":") else {
                return "only :port may follow its IP literal"
            }
        } else if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
            hostEnd = colon
        }
        if bytes.first != UInt8(ascii: "[") {
            if let bad = firstByteOutsideRegName(bytes[0..<hostEnd]) {
                return "a host name cannot hold \(describe(bad)); percent-encode it or send the name alone"
            }
        }
        guard hostEnd < bytes.count else { return nil }
        let port = bytes[(hostEnd + 1)...]
        guard port.allSatisfy(isDigit) else { return "its port \(quoted(port)) is not a number" }
        // An empty port is the grammar's (`host:`); leading zeros are digits too.
        let significant = port.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 5, significant.reduce(0, { $0 * 10 + Int($1 - UInt8(ascii: "0")) }) <= 65535 else {
            return "its port \(quoted(port)) is past 65535"
        }
        return nil
    }

    /// Unreserved, sub-delims and `%` followed by two hex digits: RFC 3986's reg-name (an IPv4 address is one).
    private static func firstByteOutsideRegName(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt8? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return byte }
                index += 3
                continue
            }
            guard isUnreserved(byte) || isSubDelim(byte) else { return byte }
            index += 1
        }
        return nil
    }

    /// An IPv6 address (zone identifiers aside, as RFC 3986 has them) or RFC 3986's IPvFuture.
    private static func isIPLiteral(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        if let first = bytes.first, first | 0x20 == UInt8(ascii: "v") {
            guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")), dot > bytes.startIndex + 1, dot + 1 < bytes.endIndex else { return false }
            return bytes[(bytes.startIndex + 1)..<dot].allSatisfy(isHex)
                && bytes[(dot + 1)...].allSatisfy { isUnreserved($0) || isSubDelim($0) || $0 == UInt8(ascii: ":") }
        }
        guard bytes.count <= 45, bytes.allSatisfy({ isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return false }
        var address = in6_addr()
        let text = String(decoding: bytes, as: UTF8.self)
        return text.withCString { inet_pton(AF_INET6, $0, &address) } == 1
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    private static func isSubDelim(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&")...UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="): true
        default: false
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: " "): "a space"
        case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
        default: "the byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    private static func quoted(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        "'" + String(decoding: bytes, as: UTF8.self) + "'"
    }
}
