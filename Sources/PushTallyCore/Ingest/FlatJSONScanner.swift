import Foundation

/// Reads the shape nearly every event arrives in without Foundation's `JSONDecoder`, whose per-object setup
/// (a decoder, a JSON map, a keyed container and a coding key per known field) cost more than the rest of a
/// batch receipt's way to the writer.
///
/// The shape: one JSON object whose keys are plain ASCII without escapes, none repeated, and whose values are
/// plain ASCII strings without escapes, integers of at most 15 digits, `true`, `false` or `null`. Anything else
/// (an escape, a byte past ASCII, a fraction or exponent, a nested value, a BOM, a syntax error) makes the
/// scanner give up with `nil`, and the caller decodes the same bytes with `JSONDecoder`: answers and error
/// messages stay the reference decoder's, and this scanner only has to agree with it where it says yes.
enum FlatJSONScanner {
    /// The event of one JSON text holding one object (whitespace around it allowed), or `nil` to fall back.
    static func event(_ bytes: UnsafeRawBufferPointer) -> RawEvent? {
        var reader = Reader(bytes)
        reader.skipWhitespace()
        guard let event = reader.object() else { return nil }
        reader.skipWhitespace()
        return reader.atEnd ? event : nil
    }

    /// The events of one JSON text holding an array of such objects, or `nil` to fall back.
    static func events(array bytes: UnsafeRawBufferPointer) -> [RawEvent]? {
        var reader = Reader(bytes)
        reader.skipWhitespace()
        guard reader.take(UInt8(ascii: "[")) else { return nil }
        var events: [RawEvent] = []
        reader.skipWhitespace()
        if !reader.take(UInt8(ascii: "]")) {
            while true {
                guard let event = reader.object() else { return nil }
                events.append(event)
                reader.skipWhitespace()
                if reader.take(UInt8(ascii: "]")) { break }
                guard reader.take(UInt8(ascii: ",")) else { return nil }
                reader.skipWhitespace()
            }
        }
        reader.skipWhitespace()
        return reader.atEnd ? events : nil
    }

    /// JSON's four whitespace bytes (RFC 8259); nothing else separates tokens.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The known field names as bytes, in ``RawEvent/knownFields``' order.
    private static let knownNames: [[UInt8]] = RawEvent.knownFields.map { Array($0.utf8) }

    /// A key's bytes in the body being scanned, hashed and compared by content; valid while the scan runs.
    private struct KeyBytes: Hashable {
        let bytes: UnsafeRawBufferPointer

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        static func == (lhs: KeyBytes, rhs: KeyBytes) -> Bool {
            lhs.bytes.count == rhs.bytes.count
                && (lhs.bytes.isEmpty || memcmp(lhs.bytes.baseAddress!, rhs.bytes.baseAddress!, lhs.bytes.count) == 0)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(bytes: bytes) }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skipWhitespace() {
            while index < bytes.count, FlatJSONScanner.isWhitespace(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// `{ "key": value, ... }` at the current byte, with only the known fields kept.
        mutating func object() -> RawEvent? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var fields: [String: RawValue] = [:]
            // Keys seen, to give up on a repeated one (known or not) rather than guess which one wins: known
            // ones by bit, others in a hash set of their bytes (allocated only when a client sends fields this
            // server ignores), so an object of many keys costs time linear in its bytes.
            var knownSeen: UInt32 = 0
            var unknownKeys: Set<KeyBytes> = []
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return RawEvent(fields: fields) }
            while true {
                guard let key = plainString() else { return nil }
                let known = knownField(key)
                if let known {
                    guard knownSeen & (1 << known) == 0 else { return nil }
                    knownSeen |= 1 << known
                } else {
                    guard unknownKeys.insert(KeyBytes(UnsafeRawBufferPointer(rebasing: bytes[key]))).inserted else { return nil }
                }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = value() else { return nil }
                if let known, let value { fields[RawEvent.knownFields[known]] = value }
                skipWhitespace()
                if take(UInt8(ascii: "}")) { return RawEvent(fields: fields) }
                guard take(UInt8(ascii: ",")) else { return nil }
                skipWhitespace()
            }
        }

        /// A scalar: `.some(nil)` for `null` (the decoder treats it as absent), `nil` to give up.
        mutating func value() -> RawValue?? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard let range = plainString() else { return nil }
                return .some(.string(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return integer().map { .some(.number($0)) }
            case UInt8(ascii: "t"):
                return literal("true") ? .some(.unsupported("boolean true")) : nil
            case UInt8(ascii: "f"):
                return literal("false") ? .some(.unsupported("boolean false")) : nil
            case UInt8(ascii: "n"):
                return literal("null") ? .some(nil) : nil
            default:
                return nil
            }
        }

        /// The bytes between quotes when they are printable ASCII without a backslash.
        mutating func plainString() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return start..<(index - 1)
                }
                if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\\") { return nil }
                index += 1
            }
            return nil
        }

        /// `-?(0|[1-9][0-9]*)` of at most 15 digits, which a `Double` holds exactly; `-0` is left to the decoder
        /// (it keeps the sign), as are fractions and exponents.
        mutating func integer() -> Double? {
            let negative = take(UInt8(ascii: "-"))
            let start = index
            var value: Int64 = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                index += 1
                if index - start > 15 { return nil }
            }
            let digits = index - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
            if negative && value == 0 { return nil }
            return Double(negative ? -value : value)
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count, memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else { return false }
            index += count
            return true
        }

        /// The index in ``RawEvent/knownFields`` of the key at `range`, if it is one.
        func knownField(_ range: Range<Int>) -> Int? {
            for (position, name) in FlatJSONScanner.knownNames.enumerated() where name.count == range.count {
                if name.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress! + range.lowerBound, range.count) }) == 0 {
                    return position
                }
            }
            return nil
        }
    }
}
