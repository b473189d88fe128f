import Foundation

/// Names and identifiers as stored and compared: Unicode NFC. Swift compares strings by canonical equivalence
/// (`Café` composed equals `Café` decomposed, `K` equals the Kelvin sign), the databases byte for byte; putting
/// every name in one spelling at the door makes both agree, so a report can never merge what storage keeps
/// apart.
///
/// Normalization sorts each run of combining marks, which costs the square of the run's length: a text is put
/// in UAX #15's Stream-Safe Text Format first (a combining grapheme joiner after every
/// ``maxNonStarters`` marks in a row), so that no run is longer and normalizing costs time linear in the text.
/// Ingest refuses such runs outright (``EventValidator/checkedText(_:field:limit:)``); this only keeps every
/// other caller (report filters, the spelling migration) linear too.
package enum CanonicalText {
    /// The most non-starters (scalars of a non-zero canonical combining class) in a row that UAX #15's
    /// Stream-Safe Text Format allows; no real text comes near it.
    package static let maxNonStarters = 30

    /// The most a text's UTF-8 length shrinks by under NFC: a Hangul syllable of three conjoining jamo (nine
    /// bytes) composes to one of three. A text longer than three times a limit is past it in any spelling.
    package static let maxShrinkFactor = 3

    /// `text` in NFC; ASCII, by far the most common, is NFC already and costs one pass over its bytes.
    package static func nfc(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        return streamSafe(text).precomposedStringWithCanonicalMapping
    }

    /// The length of the longest run of non-starters in `text`.
    package static func longestNonStarterRun(_ text: String) -> Int {
        var longest = 0
        var run = 0
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x300, scalar.properties.canonicalCombiningClass.rawValue != 0 {
                run += 1
                longest = max(longest, run)
            } else {
                run = 0
            }
        }
        return longest
    }

    /// `text` with U+034F COMBINING GRAPHEME JOINER after every ``maxNonStarters`` non-starters in a row.
    static func streamSafe(_ text: String) -> String {
        guard longestNonStarterRun(text) > maxNonStarters else { return text }
        var scalars = String.UnicodeScalarView()
        var run = 0
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x300, scalar.properties.canonicalCombiningClass.rawValue != 0 {
                run += 1
                if run > maxNonStarters {
                    scalars.append("\u{034F}")
                    run = 1
                }
            } else {
                run = 0
            }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
