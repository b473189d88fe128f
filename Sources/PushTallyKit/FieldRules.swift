import Foundation

/// The collector's rules for the fields of sessions and conversions, checked before an event is queued:
/// an event it would refuse is better not recorded (the caller learns at once) than sent and counted as
/// rejected later. The collector stays the judge: it also checks what the Kit cannot know, such as
/// whether a three-letter currency code is an active ISO 4217 code.
enum FieldRules {
    static let maxSessionIDBytes = 128
    static let maxConversionIDBytes = 128
    static let maxEventBytes = 64
    /// The largest value one conversion may carry: a billion units of its currency.
    static let maxValue = Decimal(1_000_000_000)

    /// A text field the collector stores as given: not empty, at most `limit` bytes of UTF-8, and no control
    /// characters (the collector refuses them, NUL included).
    static func isText(_ text: String, limit: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= limit
            && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Three ASCII letters, in either case (the collector reads `usd` as USD).
    static func isCurrencyCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
    }

    /// A value the collector takes: from 0 to `maxValue`.
    static func isValue(_ value: Decimal) -> Bool {
        !value.isNaN && value >= 0 && value <= maxValue
    }
}
