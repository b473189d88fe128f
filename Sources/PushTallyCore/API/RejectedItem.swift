/// One element of a batch that was refused, and why: what batch answers list under `rejected`.
public struct RejectedItem: Codable, Sendable, Hashable {
    /// The element's position in the batch (0-based; for NDJSON, among its non-blank lines).
    public var index: Int
    /// A machine-readable code (`missing_field`, `bad_value`...).
    public var error: String
    /// What was wrong, for people.
    public var message: String
    /// The field at fault, when one is.
    public var field: String?

    public init(index: Int, error: String, message: String, field: String?) {
        self.index = index
        self.error = error
        self.message = message
        self.field = field
    }
}
