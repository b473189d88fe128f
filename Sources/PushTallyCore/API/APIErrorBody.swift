/// Every error answer's JSON body: `{"error":"code","message":"human text","field":"push_id"}`.
public struct APIErrorBody: Codable, Sendable, Hashable {
    public var error: String
    public var message: String
    public var field: String?

    public init(error: String, message: String, field: String? = nil) {
        self.error = error
        self.message = message
        self.field = field
    }
}
