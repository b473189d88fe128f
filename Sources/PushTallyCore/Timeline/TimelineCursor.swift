/// Where a device timeline page ended: the last event's time and row id, the order the timeline is read in.
/// Clients pass it back as `after` without reading it, so its text form may change between versions.
public struct TimelineCursor: Sendable, Hashable {
    public var eventTimeMillis: Int64
    public var row: Int64

    public init(eventTimeMillis: Int64, row: Int64) {
        self.eventTimeMillis = eventTimeMillis
        self.row = row
    }

    /// The position before every event: a first page reads from here.
    public static let start = TimelineCursor(eventTimeMillis: .min, row: .min)

    /// `t1.` and the two numbers' bits as 16 lowercase hex digits each: URL-safe, and every string of that
    /// shape is a cursor, so the shape alone (docs/openapi.yaml's pattern) says what is valid.
    public var text: String {
        "t1." + Self.hex(eventTimeMillis) + Self.hex(row)
    }

    /// Reads ``text`` back. - Throws: a 400 naming `after` for anything not of its shape.
    public init(text: String) throws(FieldError) {
        let digits = text.utf8.dropFirst(3)
        guard text.hasPrefix("t1."), digits.count == 32,
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }),
            let time = UInt64(String(text.dropFirst(3).prefix(16)), radix: 16),
            let row = UInt64(String(text.suffix(16)), radix: 16)
        else {
            throw FieldError(
                "bad_value", "after must be the next cursor of an earlier timeline page (t1. and 32 hex digits)", field: "after")
        }
        self.init(eventTimeMillis: Int64(bitPattern: time), row: Int64(bitPattern: row))
    }

    private static func hex(_ value: Int64) -> String {
        String(UInt64(bitPattern: value), radix: 16).leftPadded(to: 16)
    }
}
