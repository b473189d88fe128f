/// A position in a database's order of commits: the event feed reads every event after one, in that order.
///
/// On SQLite, whose writers take turns, a row's id is that order. On PostgreSQL, collectors commit side by
/// side, so an id drawn earlier can commit later: events are ordered by the transaction that stored them, then
/// their id, and read only below the oldest transaction still running (`pg_snapshot_xmin`), so nothing can
/// commit behind a position once it has been read. Clients pass the text back without reading it.
public struct EventCursor: Sendable, Hashable, Comparable {
    /// The storing transaction's id (PostgreSQL's `xid8`); 0 on SQLite.
    public var transaction: UInt64
    /// The event's row id in its database.
    public var position: Int64

    public init(transaction: UInt64, position: Int64) {
        self.transaction = transaction
        self.position = position
    }

    /// Before every event: a reader with no cursor starts here.
    public static let start = EventCursor(transaction: 0, position: 0)

    /// `e1.` and the two numbers as 16 lowercase hex digits each (``CursorText``).
    public var text: String {
        CursorText.text("e1.", transaction, UInt64(bitPattern: position))
    }

    /// Reads ``text`` back. - Throws: a 400 naming `field` for anything not of its shape.
    public init(text: String, field: String = "after") throws(FieldError) {
        guard let (transaction, position) = CursorText.values(text, prefix: "e1.") else {
            throw FieldError(
                "bad_value", "\(field) must be the cursor of a line of this database's event feed (e1. and 32 hex digits)",
                field: field)
        }
        self.init(transaction: transaction, position: Int64(bitPattern: position))
    }

    public static func < (left: EventCursor, right: EventCursor) -> Bool {
        (left.transaction, left.position) < (right.transaction, right.position)
    }
}
