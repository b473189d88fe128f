import Foundation

/// How a report reads the bounds of its range (`from`, `to`): unix seconds or ISO 8601 as every time is, and a
/// date alone as that day's midnight in the report's zone, so `from=2026-11-27&tz=Asia/Taipei` starts where
/// Taipei's day does.
public enum ReportRange {
    /// Milliseconds since 1970 of `text`, or a `bad_timestamp` error naming `field`.
    public static func millis(_ text: String, field: String, zone: TimeZone) throws(FieldError) -> Int64 {
        guard let (year, month, day) = Timestamp.calendarDate(text) else {
            return try Timestamp.millis(from: .string(text), field: field)
        }
        let utcMidnight = Timestamp.daysSince1970(year: year, month: month, day: day) * 86_400_000
        // The zone's offset at its own midnight: found from UTC midnight's, then settled once more for days
        // whose offset changes in between (DST).
        let first = utcMidnight - offsetMillis(zone, at: utcMidnight)
        let midnight = utcMidnight - offsetMillis(zone, at: first)
        guard Double(abs(midnight)) / 1000 <= Timestamp.maximumSeconds else {
            throw FieldError("bad_timestamp", "\(field) is out of range", field: field)
        }
        return midnight
    }

    /// The refusal of a range whose start is after its end: nothing can fall in it.
    public static func backwards(from: String, to: String) -> FieldError {
        FieldError(
            "bad_range", "from (\(from)) is after to (\(to)); from is the range's start (inclusive) and to its end (exclusive)",
            field: "from")
    }

    private static func offsetMillis(_ zone: TimeZone, at millis: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(millis) / 1000))) * 1000
    }
}
