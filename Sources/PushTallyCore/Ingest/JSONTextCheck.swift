/// What makes JSON text unreadable as text, found before a decoder sees it: Foundation's decoder reports such a
/// string only as a value it could not decode, which the loose field readers would take for a wrong type.
///
/// Runs on the bodies the flat scanner passes on (non-ASCII or nested), not on the common flat ASCII receipt.
enum JSONTextCheck {
    /// The first problem of `bytes` as UTF-8 JSON text, naming the field whose string holds it when it is one:
    /// `invalid_utf8` for bytes that are not UTF-8 or an escaped lone surrogate (no character, so no UTF-8),
    /// `invalid_characters` for a raw control character inside a string (RFC 8259 allows them escaped only).
    /// - Parameter what: how the message names the text (`the body`, `the line`).
    static func problem(in bytes: UnsafeRawBufferPointer, of what: String) -> FieldError? {
        if String(validating: bytes, as: UTF8.self) == nil {
            return FieldError("invalid_utf8", "\(what) is not valid UTF-8")
        }
        var index = 0
        var lastKey: String?
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                index += 1
                continue
            }
            let start = index + 1
            var cursor = start
            var pendingHigh = false
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\"") {
                let byte = bytes[cursor]
                if byte < 0x20 {
                    return FieldError(
                        "invalid_characters", "\(lastKey ?? "a string") holds a raw control character; escape it", field: lastKey)
                }
                guard byte == UInt8(ascii: "\\"), cursor + 1 < bytes.count else {
                    if pendingHigh { return loneSurrogate(lastKey) }
                    cursor += 1
                    continue
                }
                if bytes[cursor + 1] == UInt8(ascii: "u"), let unit = hexUnit(bytes, at: cursor + 2) {
                    switch unit {
                    case 0xD800...0xDBFF:
                        if pendingHigh { return loneSurrogate(lastKey) }
                        pendingHigh = true
                    case 0xDC00...0xDFFF:
                        if !pendingHigh { return loneSurrogate(lastKey) }
                        pendingHigh = false
                    default:
                        if pendingHigh { return loneSurrogate(lastKey) }
                    }
                    cursor += 6
                } else {
                    if pendingHigh { return loneSurrogate(lastKey) }
                    cursor += 2
                }
            }
            if pendingHigh { return loneSurrogate(lastKey) }
            // A string followed by a colon is a key: the field later problems are named after.
            var after = cursor + 1
            while after < bytes.count, FlatJSONScanner.isWhitespace(bytes[after]) { after += 1 }
            if after < bytes.count, bytes[after] == UInt8(ascii: ":") {
                lastKey = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<min(cursor, bytes.count)]), as: UTF8.self)
            }
            index = cursor + 1
        }
        return nil
    }

    /// Refuses JSON text in UTF-16 or UTF-32, which Foundation's decoder would read on some routes and not on
    /// others: JSON between systems is UTF-8 (RFC 8259 §8.1), on every route alike. Told by a byte order mark, or
    /// by a NUL among the first four bytes (RFC 4627 §3: JSON text begins with two ASCII characters).
    static func wideEncoding(_ bytes: UnsafeRawBufferPointer, of what: String) -> FieldError? {
        let head = bytes.prefix(4)
        let marked = head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE])
        guard marked || head.contains(0) else { return nil }
        return FieldError("invalid_utf8", "\(what) is UTF-16 or UTF-32; send JSON in UTF-8 (RFC 8259 §8.1)")
    }

    private static func loneSurrogate(_ field: String?) -> FieldError {
        FieldError("invalid_utf8", "\(field ?? "a string") holds an escaped lone surrogate, which is no character", field: field)
    }

    /// The four hex digits at `offset`, if they are four hex digits.
    private static func hexUnit(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt16? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
