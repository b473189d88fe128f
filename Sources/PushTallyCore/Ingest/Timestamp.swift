import Foundation

/// Reads the timestamps clients send: unix seconds (integer or fractional, as a number or a string) or ISO 8601.
public enum Timestamp {
    /// Milliseconds since 1970, or a `bad_timestamp` error naming `field`.
    public static func millis(from value: RawValue, field: String) throws(FieldError) -> Int64 {
        switch value {
        case .number(let seconds):
            return try millis(seconds: seconds, field: field)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let seconds = Double(trimmed), trimmed.first?.isNumber == true || trimmed.first == "-" {
                return try millis(seconds: seconds, field: field)
            }
            if let date = parseISO8601(trimmed) {
                return Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
            }
            throw FieldError(
                "bad_timestamp", "\(field) must be unix seconds or ISO 8601 (2026-11-20T08:00:00Z)", field: field)
        case .unsupported(let type):
            throw FieldError("bad_timestamp", "\(field) must be a number or a string, not \(type)", field: field)
        }
    }

    /// Unix seconds past this bound (the year 9999) are not a time any clock reports.
    static let maximumSeconds = 253_402_300_799.0

    private static func millis(seconds: Double, field: String) throws(FieldError) -> Int64 {
        guard seconds.isFinite, abs(seconds) <= maximumSeconds else {
            throw FieldError("bad_timestamp", "\(field) is out of range for unix seconds", field: field)
        }
        return Int64((seconds * 1000).rounded(.down))
    }

    private static func parseISO8601(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// Formats milliseconds since 1970 as ISO 8601 in UTC, with milliseconds when they are not zero.
    public static func iso8601(millis: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(millis) / 1000)
        return millis % 1000 == 0
            ? date.formatted(.iso8601)
            : date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
