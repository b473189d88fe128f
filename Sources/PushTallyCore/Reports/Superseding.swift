/// A registered push as superseding sees it: one that has an app, a collapse id and a `sent_at`.
public struct CollapsePush: Sendable, Hashable {
    public var pushID: String
    public var app: String
    public var collapseID: String
    public var sentAtMillis: Int64
    /// `nil`: APNs keeps the push until delivered; `0`: APNs never stores it.
    public var expirationMillis: Int64?

    public init(pushID: String, app: String, collapseID: String, sentAtMillis: Int64, expirationMillis: Int64?) {
        self.pushID = pushID
        self.app = app
        self.collapseID = collapseID
        self.sentAtMillis = sentAtMillis
        self.expirationMillis = expirationMillis
    }
}

/// Which later push replaced a push at APNs, and how long after it.
public struct Supersession: Sendable, Hashable {
    /// The superseding push's id.
    public var supersededBy: String
    /// The superseding push's `sent_at` minus this push's, in milliseconds (always positive).
    public var afterMillis: Int64

    public init(supersededBy: String, afterMillis: Int64) {
        self.supersededBy = supersededBy
        self.afterMillis = afterMillis
    }
}

/// APNs shows one notification per collapse id and stores only the latest push for an offline device, so a
/// push can be lost to a later one rather than to the device: the one place that decides when.
///
/// A push P is superseded by the earliest push Q of the same app and collapse id sent after it
/// (Q.sent_at > P.sent_at) while APNs could still hold P: P has no expiration, or Q.sent_at < P's expiration.
/// - Pushes sent in the same millisecond do not supersede each other: which one APNs received last is unknown.
///   Among several pushes sent at the earliest later millisecond, the smallest push id wins, so the answer
///   does not depend on read order.
/// - An expiration of 0 means APNs never stores P, so nothing can replace it in storage: never superseded.
/// - Campaigns do not matter: a push of any campaign supersedes one of another.
public enum Superseding {
    /// The supersession of every superseded push among `pushes` (any order; all of each collapse group needed).
    public static func supersessions(_ pushes: [CollapsePush]) -> [String: Supersession] {
        struct Key: Hashable {
            let app: String
            let collapseID: String
        }
        var groups: [Key: [CollapsePush]] = [:]
        for push in pushes { groups[Key(app: push.app, collapseID: push.collapseID), default: []].append(push) }
        var result: [String: Supersession] = [:]
        for group in groups.values where group.count > 1 {
            let ordered = group.sorted { ($0.sentAtMillis, $0.pushID) < ($1.sentAtMillis, $1.pushID) }
            // `next` walks ahead to the first push sent strictly later than `push`: ties never supersede.
            var next = 0
            for push in ordered {
                while next < ordered.count && ordered[next].sentAtMillis <= push.sentAtMillis { next += 1 }
                guard next < ordered.count, push.expirationMillis != 0 else { continue }
                let later = ordered[next]
                // Only the earliest later push can come first; if it came after P expired, every later one did.
                if let expiration = push.expirationMillis, later.sentAtMillis >= expiration { continue }
                result[push.pushID] = Supersession(
                    supersededBy: later.pushID, afterMillis: later.sentAtMillis - push.sentAtMillis)
            }
        }
        return result
    }

    /// `figures` with each superseded push marked, and its loss counted as superseding loss.
    public static func apply(_ supersessions: [String: Supersession], to figures: [PushFigures]) -> [PushFigures] {
        guard !supersessions.isEmpty else { return figures }
        return figures.map { push in
            guard let supersession = supersessions[push.pushID] else { return push }
            var push = push
            push.supersession = supersession
            push.funnel.supersededPushes = 1
            push.funnel.supersededLoss = max(0, push.funnel.sent - push.funnel.displayedUnique)
            return push
        }
    }
}
