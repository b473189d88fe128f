/// A field value as a client sent it, before validation.
public enum RawValue: Sendable, Hashable {
    case string(String)
    case number(Double)
    /// A JSON value of another type (`true`, an object, an array); always rejected, naming its type.
    case unsupported(String)
}

/// The fields of one receipt or action as received, from a form body, a JSON object or an NDJSON line.
public struct RawEvent: Sendable, Hashable {
    public var fields: [String: RawValue]
    /// Set when a batch element was not a JSON object at all.
    public var notAnObject: Bool

    public init(fields: [String: RawValue] = [:], notAnObject: Bool = false) {
        self.fields = fields
        self.notAnObject = notAnObject
    }

    /// The field names an event may carry, as the raw-event columns declare them (``ClientField/all``); anything
    /// else is ignored so older servers accept newer clients.
    public static let knownFields = ClientField.all.map(\.name)

    /// The field's value, if sent. A receipt carries a field or three while the validators ask for up to ten
    /// names: comparing the few keys present costs less than hashing every name asked for.
    public func value(of name: String) -> RawValue? {
        guard fields.count <= 4 else { return fields[name] }
        for (key, value) in fields where key == name { return value }
        return nil
    }

    /// Whether `name` is one of ``knownFields``.
    static func isKnown(_ name: String) -> Bool {
        knownFields.contains(name)
    }
}
