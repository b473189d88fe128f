import Foundation

/// Names and identifiers as stored and compared: Unicode NFC. Swift compares strings by canonical equivalence
/// (`Café` composed equals `Café` decomposed, `K` equals the Kelvin sign), the databases byte for byte; putting
/// every name in one spelling at the door makes both agree, so a report can never merge what storage keeps
/// apart.
package enum CanonicalText {
    /// `text` in NFC; ASCII, by far the most common, is NFC already and costs one pass over its bytes.
    package static func nfc(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        return text.precomposedStringWithCanonicalMapping
    }
}
