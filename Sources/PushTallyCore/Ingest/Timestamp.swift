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
            if isDecimalSeconds(trimmed), let seconds = Double(trimmed) {
                return try millis(seconds: seconds, field: field)
            }
            if let millis = parseISO8601(trimmed) {
                return millis
            }
            throw FieldError(
                "bad_timestamp", "\(field) must be unix seconds or ISO 8601 (2026-11-20T08:00:00Z, or the date 2026-11-20)",
                field: field)
        case .unsupported(let type):
            throw FieldError("bad_timestamp", "\(field) must be a number or a string, not \(type)", field: field)
        }
    }

    /// Whether `text` is unix seconds as a decimal: an optional `-`, at most twelve digits (the year 9999 has
    /// twelve), and at most nine after a point. `Double` alone would also read `0x10`, `1e5`, `1.` and `nan`,
    /// none of which a clock writes, and hexadecimal would be taken as a time far from the one meant.
    static func isDecimalSeconds(_ text: String) -> Bool {
        var digits = 0
        var fraction: Int?
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where offset == 0:
                continue
            case UInt8(ascii: ".") where fraction == nil && digits > 0:
                fraction = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if let count = fraction { fraction = count + 1 } else { digits += 1 }
            default:
                return false
            }
        }
        return (1...12).contains(digits) && (fraction.map { (1...9).contains($0) } ?? true)
    }

    /// Unix seconds past this bound (the year 9999) are not a time any clock reports.
    static let maximumSeconds = 253_402_300_799.0

    private static func millis(seconds: Double, field: String) throws(FieldError) -> Int64 {
        guard seconds.isFinite, abs(seconds) <= maximumSeconds else {
            throw FieldError("bad_timestamp", "\(field) is out of range for unix seconds", field: field)
        }
        return Int64((seconds * 1000).rounded(.down))
    }

    /// Milliseconds since 1970 of an ISO 8601 date and time with its zone, read in the proleptic Gregorian calendar
    /// that ``iso8601(millis:offsetSeconds:)`` writes. By hand rather than with Foundation: its parsers switch to
    /// the Julian calendar before 1582-10-15, so an old time came back days away from what was sent.
    ///
    /// As lenient as Foundation's `Date.ISO8601FormatStyle` was, so that no client that worked stops working: any
    /// number of digits up to ten in each date and time field, `T` or `t`, `Z` or `z`, `GMT` or `UTC` (with or without an
    /// offset), offsets with or without their colon, minutes or seconds, and anything after the zone (RFC 9557's
    /// `[Europe/Paris]`, say) ignored. Stricter where Foundation rolled over instead of refusing: a day past its
    /// month's end, an hour past 24:00:00, a minute or an offset's minutes or seconds past 59, and times past the
    /// year 9999 (the bound unix seconds have) are no time at all. A leap second (`:60`) is the next minute's
    /// first second, as it was. A date alone (`2026-11-27`) is that day's start in UTC, where no zone applies.
    static func parseISO8601(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = ISO8601Reader(bytes: bytes)
            return reader.millis()
        }
    }

    /// The year, month and day of `text` when it is a date alone (`2026-11-27`), which a report reads as midnight in
    /// its own time zone; `nil` for anything else.
    public static func calendarDate(_ text: String) -> (year: Int64, month: Int64, day: Int64)? {
        var text = text.trimmingCharacters(in: .whitespaces)
        return text.withUTF8 { bytes in
            var reader = ISO8601Reader(bytes: bytes)
            guard let date = reader.date(), reader.index == bytes.count else { return nil }
            return date
        }
    }

    /// The day number of a proleptic Gregorian date (Howard Hinnant's days-from-civil, the inverse of ``civilDate``).
    public static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Days in `month` of `year`, proleptic Gregorian (1900 has no February 29th, 2000 and the year 0 have one).
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
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

/// Reads `YYYY-MM-DD[Thh:mm:ss[.fff](Z|±hh:mm)]` one byte at a time; see ``Timestamp/parseISO8601(_:)`` for what it takes.
private struct ISO8601Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    mutating func millis() -> Int64? {
        guard let date = date() else { return nil }
        let (year, month, day) = date
        // A date alone is that day's start in UTC; with a zone of their own, reports read it there
        // (``Timestamp/calendarDate(_:)``).
        if index == bytes.count {
            let seconds = Timestamp.daysSince1970(year: year, month: month, day: day) * 86_400
            return Double(abs(seconds)) <= Timestamp.maximumSeconds ? seconds * 1000 : nil
        }
        // RFC 3339 §5.6 lets the separator and the zone's Z be lower case.
        guard skip("T") || skip("t"), let hour = number()?.value, skip(":"), let minute = number()?.value, minute <= 59, skip(":"),
            let second = number()?.value, second <= 60
        else { return nil }
        var nanoseconds: Int64 = 0
        if skip(".") {
            // Ten digits or more were refused before, as past a nanosecond.
            guard let (fraction, digits) = number(), digits <= 9 else { return nil }
            nanoseconds = fraction * (0..<(9 - digits)).reduce(1) { power, _ in power * 10 }
        }
        // 24:00:00 is the end of the day, which is the next day's start; any other hour past 23 is no time.
        guard hour <= 23 || (hour == 24 && minute == 0 && second == 0 && nanoseconds == 0),
            let offset = zoneOffsetSeconds()
        else { return nil }
        let seconds = Timestamp.daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        guard Double(abs(seconds)) <= Timestamp.maximumSeconds else { return nil }
        return seconds * 1000 + nanoseconds / 1_000_000
    }

    /// `YYYY-MM-DD`, a day its month has.
    mutating func date() -> (year: Int64, month: Int64, day: Int64)? {
        guard let year = number()?.value, skip("-"), let month = number()?.value, (1...12).contains(month), skip("-"),
            let day = number()?.value, (1...Timestamp.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return (year, month, day)
    }

    /// Seconds east of UTC: `Z`, `GMT` or `UTC` (optionally followed by an offset), or `+`/`-` and an offset.
    private mutating func zoneOffsetSeconds() -> Int64? {
        guard let designator = next() else { return nil }
        let sign: Int64
        switch designator | 0x20 {  // ASCII lowercase
        case UInt8(ascii: "z"):
            return 0
        case UInt8(ascii: "g"), UInt8(ascii: "u"):
            let rest: [UInt8] = designator | 0x20 == UInt8(ascii: "g") ? Array("mt".utf8) : Array("tc".utf8)
            guard rest.allSatisfy({ letter in next().map { $0 | 0x20 } == letter }) else { return nil }
            if skip("+") {
                sign = 1
            } else if skip("-") {
                sign = -1
            } else {
                return 0
            }
        default:
            if designator == UInt8(ascii: "+") {
                sign = 1
            } else if designator == UInt8(ascii: "-") {
                sign = -1
            } else {
                return nil
            }
        }
        guard let hours = number(maxDigits: 2)?.value else { return nil }
        var minutes: Int64 = 0
        var seconds: Int64 = 0
        if skip(":") || peek().map(isDigit) == true {
            guard let value = number(maxDigits: 2)?.value else { return nil }
            minutes = value
            _ = skip(":")
            if peek().map(isDigit) == true {
                seconds = number(maxDigits: 2)?.value ?? 0
            }
        }
        let total = hours * 3600 + minutes * 60 + seconds
        // Eighteen hours is as far as any zone reaches, and as far as Foundation's parser took.
        guard minutes <= 59, seconds <= 59, total <= 18 * 3600 else { return nil }
        return sign * total
    }

    /// Up to `maxDigits` ASCII digits (at least one), and how many there were.
    private mutating func number(maxDigits: Int = 10) -> (value: Int64, digits: Int)? {
        var value: Int64 = 0
        var digits = 0
        while digits < maxDigits, let byte = peek(), isDigit(byte) {
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits > 0 ? (value, digits) : nil
    }

    private mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func next() -> UInt8? {
        defer { index += 1 }
        return peek()
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
