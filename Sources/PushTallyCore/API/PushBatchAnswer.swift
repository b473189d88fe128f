/// The answer to `POST /v1/pushes`: how many records were registered, and each one refused.
public struct PushBatchAnswer: Codable, Sendable, Hashable {
    public var accepted: Int
    public var created: Int
    public var updated: Int
    public var rejected: [RejectedItem]

    public init(accepted: Int, created: Int, updated: Int, rejected: [RejectedItem]) {
        self.accepted = accepted
        self.created = created
        self.updated = updated
        self.rejected = rejected
    }
}
