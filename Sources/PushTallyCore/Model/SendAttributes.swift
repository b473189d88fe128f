/// How the backend sent a push to APNs, and which experiment arm it belongs to: what a registration may add
/// beside its campaign. Every field is optional; a registration replaces them all, as it does its title.
public struct SendAttributes: Sendable, Hashable {
    /// The experiment arm (`A`, `B`, `control`...), at most 64 bytes.
    public var variant: String?
    /// `apns-collapse-id`: APNs shows one notification per id and keeps only the latest for an offline device.
    public var collapseID: String?
    /// `apns-priority`: 10 (immediately) or 5 (power considerations).
    public var priority: Int?
    /// `apns-push-type`.
    public var pushType: String?
    /// `apns-expiration` in milliseconds since 1970; 0 means APNs does not store the push at all.
    public var expirationMillis: Int64?

    public init(
        variant: String? = nil, collapseID: String? = nil, priority: Int? = nil, pushType: String? = nil,
        expirationMillis: Int64? = nil
    ) {
        self.variant = variant
        self.collapseID = collapseID
        self.priority = priority
        self.pushType = pushType
        self.expirationMillis = expirationMillis
    }

    /// The byte limit of `variant` and of `collapse_id` (APNs allows 64 bytes).
    public static let maximumBytes = 64
    /// `apns-priority` values.
    public static let priorities: Set<Int> = [5, 10]
    /// `apns-push-type` values.
    public static let pushTypes: [String] = [
        "alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity",
        "pushtotalk", "widgets",
    ]
}
