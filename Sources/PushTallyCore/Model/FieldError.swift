/// A client mistake, reported as `{"error": code, "message": message, "field": field}` with a 4xx.
public struct FieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable machine-readable code such as `missing_field` or `too_long`.
    public var code: String
    /// A sentence for people.
    public var message: String
    /// The offending field, when there is one.
    public var field: String?

    public init(_ code: String, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    public var description: String {
        field.map { "\(code) (\($0)): \(message)" } ?? "\(code): \(message)"
    }

    /// A required field that is absent or empty.
    public static func missing(_ field: String) -> FieldError {
        FieldError("missing_field", "\(field) is required and must not be empty", field: field)
    }
}
