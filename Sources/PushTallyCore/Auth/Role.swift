/// What a token may do. Ingest keys ship inside apps, so they are public and can only add events.
public enum Role: String, Sendable, CaseIterable, Codable {
    /// Post events: receipts, actions, sessions and conversions.
    case ingest
    /// Register pushes and their send counts.
    case backend
    /// Read reports.
    case read
    /// Read every stored event, in commit order (the event feed, for a warehouse). Raw events name devices by
    /// their keyed hashes and times to the millisecond: more than reports show, so a role of its own.
    case export
    /// Everything.
    case admin

    /// Whether a token of this role may do what `required` is needed for.
    public func grants(_ required: Role) -> Bool {
        self == .admin || self == required
    }
}

/// A stored token as listed to operators: never the secret.
public struct TokenInfo: Sendable, Hashable, Codable {
    public var id: String
    public var role: Role
    public var label: String?
    public var createdAtMillis: Int64
    public var revokedAtMillis: Int64?

    package init(id: String, role: Role, label: String?, createdAtMillis: Int64, revokedAtMillis: Int64?) {
        self.id = id
        self.role = role
        self.label = label
        self.createdAtMillis = createdAtMillis
        self.revokedAtMillis = revokedAtMillis
    }
}
