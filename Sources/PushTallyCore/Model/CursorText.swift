/// The text form both paging cursors share: a prefix naming the cursor (`t1.`, `e1.`), then two 64-bit values as 16
/// lowercase hex digits each. URL-safe, and every string of that shape reads back, so the shape alone (the API
/// document's pattern) says what is valid.
enum CursorText {
    static func text(_ prefix: String, _ first: UInt64, _ second: UInt64) -> String {
        prefix + String(first, radix: 16).leftPadded(to: 16) + String(second, radix: 16).leftPadded(to: 16)
    }

    /// The two values of `text`, or `nil` when it is not `prefix` and 32 lowercase hex digits.
    static func values(_ text: String, prefix: String) -> (UInt64, UInt64)? {
        let digits = text.utf8.dropFirst(prefix.utf8.count)
        guard text.utf8.starts(with: prefix.utf8), digits.count == 32, digits.allSatisfy(isHexDigit),
            let first = UInt64(String(text.dropFirst(prefix.count).prefix(16)), radix: 16),
            let second = UInt64(String(text.suffix(16)), radix: 16)
        else { return nil }
        return (first, second)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
