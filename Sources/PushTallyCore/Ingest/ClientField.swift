/// A field clients send (a form field, a JSON key) and what it may hold: declared beside the raw-event column
/// it is stored in (``EventColumn/clientField``), so the names the parsers keep, the byte limits and the
/// ranges the validators check all come from that one declaration.
package struct ClientField: Sendable {
    /// What a field may hold.
    package enum Rule: Sendable {
        /// Text (or an integer id) of at most `limit` bytes in NFC, with no control or invisible characters.
        case text(limit: Int)
        /// A device time (``Timestamp``).
        case time
        /// A money amount (``MoneyAmount``).
        case money
        /// A whole number in `range`, as a JSON number or as decimal digits (forms send text); `unit` names
        /// what it counts in the error for any other.
        case wholeNumber(ClosedRange<Int64>, unit: String)
        /// One of `accepted`, the raw values of the enumeration the field is read into.
        case oneOf(accepted: [String])
    }

    /// The name clients send.
    package let name: String
    package let rule: Rule

    package init(_ name: String, _ rule: Rule) {
        self.name = name
        self.rule = rule
    }

    /// The byte limit of a text field.
    package var limit: Int? {
        if case .text(let limit) = rule { limit }
        else { nil }
    }

    /// A session's id, kept in `receipt_id` (a session's dedupe key, as a receipt's id is a receipt's).
    package static let sessionID = ClientField("session_id", .text(limit: 128))
    /// A conversion's id, kept in `receipt_id` as a session's is.
    package static let conversionID = ClientField("conversion_id", .text(limit: 128))

    /// Every field an event may carry: those of the raw-event columns, then the ids kept in another's column.
    package static let all: [ClientField] =
        EventColumn.allCases.compactMap(\.clientField) + [sessionID, conversionID]
}
