import Foundation
import PushTallyCore

/// The `Date` header's IMF-fixdate (`Sun, 22 Nov 2026 14:03:18 GMT`), which an origin server with a clock must
/// send (RFC 9110, 6.6.1), kept per connection and formatted again only when the second changes.
struct HTTPDate {
    private var second: Int = -1
    private var text = ""

    /// The header for now.
    mutating func now() -> String {
        let current = time(nil)
        if current != second {
            second = current
            text = Self.format(secondsSince1970: Int64(current))
        }
        return text
    }

    static func format(secondsSince1970 seconds: Int64) -> String {
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (year, month, day) = Timestamp.civilDate(daysSince1970: days)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let two = { (value: Int64) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int((days % 7 + 7) % 7)]), \(two(day)) \(months[Int(month) - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }
}
