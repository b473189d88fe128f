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
        iso8601(millis: millis, offsetSeconds: 0)
    }

    /// ISO 8601 at a UTC offset (`Z` for zero, else `+05:45`), with milliseconds when they are not zero.
    ///
    /// By hand rather than with Foundation's formatters: a report writes one per push and per bucket, and
    /// ICU's formatters cost microseconds each (they were most of a 1,000-push report's time).
    public static func iso8601(millis: Int64, offsetSeconds: Int) -> String {
        let local = millis + Int64(offsetSeconds) * 1000
        let (days, millisOfDay) = local.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, dayMillis) = millisOfDay < 0 ? (days - 1, millisOfDay + 86_400_000) : (days, millisOfDay)
        let (year, month, dayOfMonth) = civilDate(daysSince1970: day)
        let seconds = dayMillis / 1000
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(dayOfMonth, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        if dayMillis % 1000 != 0 { text += ".\(pad(dayMillis % 1000, 3))" }
        guard offsetSeconds != 0 else { return text + "Z" }
        let minutes = abs(offsetSeconds) / 60
        return text + (offsetSeconds < 0 ? "-" : "+") + "\(pad(Int64(minutes / 60), 2)):\(pad(Int64(minutes % 60), 2))"
    }

    /// Year, month and day of a day number (Howard Hinnant's days-to-civil, proleptic Gregorian).
    public static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Zero-padded to `width` digits after the sign: a year before 0 is `-0005`, not `00-5` (timestamps reach
    /// back to 253402300799 seconds before 1970).
    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        return value < 0 ? "-" + padded : padded
    }
}
