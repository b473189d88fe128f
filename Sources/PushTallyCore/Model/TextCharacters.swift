/// Which characters a stored name or id may not hold: those that would make two names look the same while
/// storage keeps them apart, or that break a line for a line reader (CSV, NDJSON, a terminal).
package enum TextCharacters {
    /// Whether every byte of `text` is printable ASCII (a space to a tilde): such a text may be stored as it is.
    package static func isPrintableASCII(_ text: String) -> Bool {
        func printable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }
        return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(printable) } ?? text.utf8.allSatisfy(printable)
    }

    /// Why `text` may not be stored, or `nil` when it may. Linear in the text.
    package static func problem(in text: String) -> String? {
        var previous: Unicode.Scalar?
        var scalars = text.unicodeScalars.makeIterator()
        var current = scalars.next()
        while let scalar = current {
            let next = scalars.next()
            switch scalar.value {
            case 0..<0x20, 0x7F, 0x80...0x9F:
                return "control characters"
            case 0x2028, 0x2029:
                return "line or paragraph separators (U+2028, U+2029)"
            case 0x200D where !joinsTwoCharacters(previous, next):
                // A zero-width joiner belongs inside an emoji sequence or a word of a script that needs it; at
                // either end of a name, or beside ASCII or a space, it only makes a look-alike.
                return "a zero-width joiner (U+200D) that joins nothing"
            case 0x00AD, 0x061C, 0x180E, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF:
                return "invisible format characters (U+\(String(scalar.value, radix: 16, uppercase: true)))"
            default:
                break
            }
            previous = scalar
            current = next
        }
        return nil
    }

    /// Whether a joiner after `before` and before `after` changes how text outside ASCII is drawn: between two
    /// such characters (an emoji sequence, a half form), or after a virama, where it asks for the form that ends
    /// a word (a Malayalam chillu).
    private static func joinsTwoCharacters(_ before: Unicode.Scalar?, _ after: Unicode.Scalar?) -> Bool {
        guard let before, isVisibleBeyondASCII(before) else { return false }
        if let after, isVisibleBeyondASCII(after) { return true }
        return before.properties.canonicalCombiningClass == .virama
    }

    private static func isVisibleBeyondASCII(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x7F && !scalar.properties.isWhitespace && scalar.value != 0x200D
    }
}
