/// One push with its registration (if any) and its counts, read from rollups.
public struct PushFigures: Sendable, Hashable {
    public var pushID: String
    /// `nil` for an orphan: receipts arrived but nobody registered the push yet.
    public var campaign: String?
    public var title: String?
    public var sentAtMillis: Int64?
    public var app: String?
    public var environment: String?
    /// The earliest event time of any receipt or action, when there is one.
    public var firstEventMillis: Int64?
    public var funnel: Funnel
    /// Variant and APNs send attributes of a registered push.
    public var attributes = SendAttributes()
    /// The later push that replaced this one at APNs, if one did; set by reports (``Superseding``).
    public var supersession: Supersession?
    /// The events that named a platform, read only for a filter that names one (``onPlatform(_:)``).
    package var platformEvents: [PlatformEvents] = []
    /// The sends and failures of records that named a platform, read only for a filter that names one.
    package var platformSends: [PlatformSends] = []
    /// FCM's events by the platform it sent to (``Funnel/fcm`` holds them all).
    package var platformFCM: [PlatformFCM] = []

    public var isOrphan: Bool { campaign == nil }

    package init(
        pushID: String, campaign: String?, title: String?, sentAtMillis: Int64?, app: String?, environment: String?,
        firstEventMillis: Int64?, funnel: Funnel
    ) {
        self.pushID = pushID
        self.campaign = campaign
        self.title = title
        self.sentAtMillis = sentAtMillis
        self.app = app
        self.environment = environment
        self.firstEventMillis = firstEventMillis
        self.funnel = funnel
    }

    /// An unregistered push's figures.
    package init(pushID: String, firstEventMillis: Int64?, funnel: Funnel) {
        self.init(
            pushID: pushID, campaign: nil, title: nil, sentAtMillis: nil, app: nil, environment: nil,
            firstEventMillis: firstEventMillis, funnel: funnel)
    }

    /// The time reports filter on: `sent_at`, or the first receipt when the push has none.
    public var referenceMillis: Int64? { sentAtMillis ?? firstEventMillis }
}

/// Which pushes a report covers.
public struct ReportFilter: Sendable, Hashable {
    /// Inclusive lower bound on a push's ``PushFigures/referenceMillis``.
    public var fromMillis: Int64?
    /// Exclusive upper bound on a push's ``PushFigures/referenceMillis``.
    public var toMillis: Int64?
    public var campaign: String?
    public var pushID: String?
    public var app: String?
    public var environment: String?
    /// Only the events that named this platform (`unknown`: those that named none); what belongs to a push
    /// and not to an event is kept under `unknown` (``CampaignListAssembly``, ``PushFigures/onPlatform(_:)``).
    public var platform: String?
    /// The page of the report being read, for a report read a page at a time (``CampaignPager``); `nil`:
    /// the whole report.
    package var page: ReportPage?

    public init(
        fromMillis: Int64? = nil, toMillis: Int64? = nil, campaign: String? = nil, pushID: String? = nil,
        app: String? = nil, environment: String? = nil, platform: String? = nil
    ) {
        self.fromMillis = fromMillis
        self.toMillis = toMillis
        self.campaign = campaign
        self.pushID = pushID
        self.app = app
        self.environment = environment
        self.platform = platform
    }

    package func includes(_ push: PushFigures) -> Bool {
        guard includes(campaign: push.campaign, pushID: push.pushID, app: push.app, environment: push.environment) else {
            return false
        }
        return includes(referenceMillis: push.referenceMillis)
    }

    /// Whether the filter names a time range (`from`, `to`).
    package var hasTimeRange: Bool { fromMillis != nil || toMillis != nil }

    /// Whether a push whose reference time (``PushFigures/referenceMillis``) is `reference` falls in the time
    /// range; a push with none falls in no range.
    package func includes(referenceMillis reference: Int64?) -> Bool {
        guard hasTimeRange else { return true }
        guard let reference else { return false }
        if let fromMillis, reference < fromMillis { return false }
        if let toMillis, reference >= toMillis { return false }
        return true
    }

    /// ``includes(_:)`` on everything but the time range (an orphan has no campaign, app or environment).
    package func includes(campaign: String?, pushID: String, app: String?, environment: String?) -> Bool {
        if let wanted = self.campaign, campaign != wanted { return false }
        if let wanted = self.pushID, pushID != wanted { return false }
        if let wanted = self.app, app != wanted { return false }
        if let wanted = self.environment, environment != wanted { return false }
        return true
    }
}
