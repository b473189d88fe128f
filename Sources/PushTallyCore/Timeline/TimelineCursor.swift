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

    /// `t1.` and the two numbers' bits as 16 lowercase hex digits each (``CursorText``).
    public var text: String {
        CursorText.text("t1.", UInt64(bitPattern: eventTimeMillis), UInt64(bitPattern: row))
    }

    /// Reads ``text`` back. - Throws: a 400 naming `after` for anything not of its shape.
    public init(text: String) throws(FieldError) {
        guard let (time, row) = CursorText.values(text, prefix: "t1.") else {
            throw FieldError(
                "bad_value", "after must be the next cursor of an earlier timeline page (t1. and 32 hex digits)", field: "after")
        }
        self.init(eventTimeMillis: Int64(bitPattern: time), row: Int64(bitPattern: row))
    }
}
