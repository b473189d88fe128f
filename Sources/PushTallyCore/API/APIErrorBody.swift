/// Every error answer's JSON body: `{"error":"code","message":"human text","field":"push_id"}`.
public struct APIErrorBody: Codable, Sendable, Hashable {
    public var error: String
    public var message: String
    public var field: String?
    /// The line of a posted file the error is in (an FCM export's bad row), when it is about one.
    public var line: Int?

    public init(error: String, message: String, field: String? = nil, line: Int? = nil) {
        self.error = error
        self.message = message
        self.field = field
        self.line = line
    }
}
