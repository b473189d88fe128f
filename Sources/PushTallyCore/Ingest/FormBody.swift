/// Parses `application/x-www-form-urlencoded` bodies.
///
/// Hand-written rather than Hummingbird's `URLEncodedFormDecoder` because this runs on the ingest hot path for
/// every extension receipt, the fields are flat strings, and invalid UTF-8 must be a 400, not a 500.
public enum FormBody {
    /// Decodes `a=1&b=x%20y` into a dictionary; the first occurrence of a repeated name wins.
    public static func parse(_ bytes: some Collection<UInt8>) throws(FieldError) -> [String: String] {
        var result: [String: String] = [:]
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try decode(parts[0])
            let value = parts.count > 1 ? try decode(parts[1]) : ""
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    private static func decode(_ component: some Collection<UInt8>) throws(FieldError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.count)
        var index = component.startIndex
        while index != component.endIndex {
            let byte = component[index]
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = component.index(after: index)
                guard high != component.endIndex, component.index(after: high) != component.endIndex,
                    let h = hexValue(component[high]), let l = hexValue(component[component.index(after: high)])
                else {
                    throw FieldError("malformed_form", "bad percent-encoding in form body")
                }
                bytes.append(h << 4 | l)
                index = component.index(after: high)
            default:
                bytes.append(byte)
            }
            index = component.index(after: index)
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw FieldError("invalid_utf8", "form body is not valid UTF-8")
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
        for name in RawEvent.knownFields {
            if let value = form[name] { fields[name] = .string(value) }
        }
        self.init(fields: fields)
    }
}
