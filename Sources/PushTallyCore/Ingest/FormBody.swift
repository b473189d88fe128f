/// Parses `application/x-www-form-urlencoded` bodies.
///
/// Hand-written rather than Hummingbird's `URLEncodedFormDecoder` because this runs on the ingest hot path for
/// every extension receipt, the fields are flat strings, and invalid UTF-8 must be a 400, not a 500.
public enum FormBody {
    /// The raw event of a form body in one pass over its bytes, with no dictionary of every pair: this runs for
    /// every extension receipt. The first of a repeated name wins; names a receipt does not know are left out,
    /// though each one's name and first value must still decode.
    public static func rawEvent(_ bytes: UnsafeRawBufferPointer) throws(FieldError) -> RawEvent {
        var fields: [String: RawValue] = [:]
        var unknown: Set<String> = []
        var start = 0
        while start <= bytes.count {
            var end = start
            var equals: Int?
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                if equals == nil, bytes[end] == UInt8(ascii: "=") { equals = end }
                end += 1
            }
            if end > start {
                let name = try decode(UnsafeRawBufferPointer(rebasing: bytes[start..<(equals ?? end)]))
                let value = equals.map { UnsafeRawBufferPointer(rebasing: bytes[($0 + 1)..<end]) }
                if RawEvent.isKnown(name) {
                    if fields[name] == nil { fields[name] = .string(try value.map(decode) ?? "") }
                } else if unknown.insert(name).inserted, let value {
                    _ = try decode(value)
                }
            }
            start = end + 1
        }
        return RawEvent(fields: fields)
    }

    /// Encodes pairs as browsers do (WHATWG `application/x-www-form-urlencoded`, like `URLSearchParams` and
    /// Python's `urlencode`): a space is `+`, every byte but `*-._` and ASCII letters and digits is escaped, so a
    /// `+`, `&`, `=`, `%` or `#` in a value reads back as itself.
    public static func encode(_ pairs: [(name: String, value: String)]) -> String {
        func component(_ text: String) -> String {
            var out = ""
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                case UInt8(ascii: " "):
                    out += "+"
                default:
                    let hex = Array("0123456789ABCDEF".unicodeScalars)
                    out += "%"
                    out.unicodeScalars.append(hex[Int(byte >> 4)])
                    out.unicodeScalars.append(hex[Int(byte & 0xF)])
                }
            }
            return out
        }
        return pairs.map { component($0.name) + "=" + component($0.value) }.joined(separator: "&")
    }

    /// Every `name=value` pair of a query string or form body in order, repeats kept, decoded as browsers encode
    /// them (WHATWG `application/x-www-form-urlencoded`: `+` is a space, percent-escapes are UTF-8).
    public static func pairs(_ text: Substring) throws(FieldError) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for part in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = part.firstIndex(of: UInt8(ascii: "="))
            let name = try decode(part[..<(equals ?? part.endIndex)])
            let value = try equals.map { index throws(FieldError) in try decode(part[part.index(after: index)...]) } ?? ""
            pairs.append((name, value))
        }
        return pairs
    }

    private static func decode(_ component: Substring.UTF8View.SubSequence) throws(FieldError) -> String {
        let bytes = Array(component)
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(FieldError) -> String in try decode(buffer) } }
        return try result.get()
    }

    private static func decode(_ component: UnsafeRawBufferPointer) throws(FieldError) -> String {
        // Most components need no decoding: validate them as they are, without a copy. Plain ASCII, what nearly
        // every one is, is valid UTF-8 as it stands.
        var escaped = false
        var ascii = true
        for byte in component {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") {
                escaped = true
                break
            }
            if byte >= 0x80 { ascii = false }
        }
        if !escaped {
            if ascii { return String(decoding: component, as: UTF8.self) }
            guard let string = String(validating: component, as: UTF8.self) else {
                throw FieldError("invalid_utf8", "not valid UTF-8 once percent-decoded")
            }
            return string
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.count)
        var index = 0
        while index < component.count {
            let byte = component[index]
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index + 2 < component.count, let h = hexValue(component[index + 1]), let l = hexValue(component[index + 2]) else {
                    throw FieldError("malformed_form", "bad percent-encoding (a % must be followed by two hex digits)")
                }
                bytes.append(h << 4 | l)
                index += 2
            default:
                bytes.append(byte)
            }
            index += 1
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw FieldError("invalid_utf8", "not valid UTF-8 once percent-decoded")
        }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension RawEvent {
    /// An event from form fields; every value is a string.
    public init(form: [String: String]) {
        var fields: [String: RawValue] = [:]
        fields.reserveCapacity(form.count)
        // The few pairs sent, not every known name looked up (see `RawEvent.value(of:)`).
        for (name, value) in form where RawEvent.isKnown(name) { fields[name] = .string(value) }
        self.init(fields: fields)
    }
}
