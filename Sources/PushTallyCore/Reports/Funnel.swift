/// Total and recognised retries of one kind of event.
public struct EventCount: Sendable, Hashable {
    /// Every event accepted, retries included.
    public var total: Int64
    /// Events recognised as retries (same `receipt_id`, or same device, for the same push and kind).
    public var duplicates: Int64
    /// `total - duplicates`.
    public var unique: Int64 { total - duplicates }

    public init(total: Int64 = 0, duplicates: Int64 = 0) {
        self.total = total
        self.duplicates = duplicates
    }

    mutating func add(_ other: EventCount) {
        total += other.total
        duplicates += other.duplicates
    }
}

/// Sent vs displayed vs acted on, for one push or summed over many. Every rate is pooled (sum over sum).
public struct Funnel: Sendable, Hashable {
    public var pushes = 0
    public var targeted: Int64 = 0
    public var sent: Int64 = 0
    /// Sends of pushes with a `sent_at`: only their displays can be timed, so only they count towards the
    /// 1 h / 24 h / 7 d rates.
    public var sentTimed: Int64 = 0
    /// APNs refusals by reason (``addFailures(reason:count:)``).
    public private(set) var failedByReason: [String: Int64] = [:]
    /// Every refusal, whatever its reason.
    public private(set) var failed: Int64 = 0
    public var displays = EventCount()
    /// Actions by normalised identifier: `open`, `dismiss` and custom ones.
    public var actions: [String: EventCount] = [:]
    /// Time to display of unique displays of pushes with a `sent_at`.
    public var latency = LatencyHistogram()
    /// The per-push counts of `rollup_push` summed: a ``PushCount`` is added up here with no field of its own.
    package var counts = PushCounts()
    /// Unique displays received after their push's `final_at` (counted in the figures all the same).
    public var late: Int64 {
        get { counts[.late] }
        set { counts[.late] = newValue }
    }
    /// Sessions and conversions credited to the push(es).
    public var outcomes = Outcomes()
    /// Pushes replaced at APNs by a later push with the same collapse id (``Superseding``).
    public var supersededPushes = 0
    /// Of superseded pushes, `max(0, sent - displayed_unique)` each: loss the later push explains.
    public var supersededLoss: Int64 = 0
    /// Unique displays by rich-media outcome, with their extension times.
    public var media = MediaOutcomes()
    /// FCM's own delivery events (its BigQuery export), beside the displays.
    public var fcm = FCMFigures()
    /// The first figure whose sum did not fit in 64 bits: these figures cannot be reported (``checkRange()``).
    /// Each stored send count is bounded at the door; only a sum over very many pushes gets here.
    public private(set) var outOfRange: String?

    public init() {}

    /// Throws when a figure (or a conversion value) of this funnel did not add up in 64 bits.
    public func checkRange() throws(TotalOutOfRange) {
        if let outOfRange { throw TotalOutOfRange(field: outOfRange) }
        try outcomes.checkRange()
    }

    /// Marks `field` as not fitting (the first one marked is kept).
    package mutating func markOutOfRange(_ field: String) {
        if outOfRange == nil { outOfRange = field }
    }

    /// `figure += amount`, or `false` and `figure` left as it was when the sum passes 64 bits.
    private static func add(_ amount: Int64, to figure: inout Int64) -> Bool {
        let (sum, overflow) = figure.addingReportingOverflow(amount)
        if !overflow { figure = sum }
        return !overflow
    }

    /// APNs reasons with a column of their own; every other reason adds to `failed_other`.
    public static let commonFailureReasons: [(column: String, reason: String)] = [
        ("failed_unregistered", "Unregistered"),
        ("failed_bad_device_token", "BadDeviceToken"),
        ("failed_device_token_not_for_topic", "DeviceTokenNotForTopic"),
        ("failed_too_many_requests", "TooManyRequests"),
    ]

    /// Failures whose reason has no column of its own.
    public var failedOther: Int64 {
        failedByReason.reduce(0) { Self.commonReasons.contains($1.key) ? $0 : $0 + $1.value }
    }

    /// The reasons of ``commonFailureReasons``, made once rather than a set built per report row.
    private static let commonReasons = Set(commonFailureReasons.map(\.reason))

    /// `sent - displayed_unique - superseded_loss`: accepted by APNs, never shown, and not explained by a later
    /// push with the same collapse id (offline past expiry, notifications off). Negative when keyless retries
    /// inflate displays or sends are under-reported.
    public var unexplainedLoss: Int64 { sent - displayedUnique - supersededLoss }

    /// Unique displays within `seconds` of `sent_at` (one of 1 h, 24 h, 7 d) per device sent to, over the pushes
    /// with a `sent_at`; `nil` when none has one.
    public func displayRate(within seconds: Int64) -> Double? {
        Self.ratio(latency.count(below: seconds), sentTimed)
    }

    public var displayed: Int64 { displays.total }
    public var duplicates: Int64 { displays.duplicates }
    public var displayedUnique: Int64 { displays.unique }
    public var opened: Int64 { actions[StandardAction.open]?.total ?? 0 }
    public var openedUnique: Int64 { actions[StandardAction.open]?.unique ?? 0 }
    public var dismissed: Int64 { actions[StandardAction.dismiss]?.total ?? 0 }
    /// Actions other than open and dismiss, by identifier (every tap, retries included).
    public var customActions: [String: Int64] {
        actions.filter { $0.key != StandardAction.open && $0.key != StandardAction.dismiss }.mapValues(\.total)
    }

    /// `displayed_unique / sent`; `nil` when nothing was sent. May exceed 1 (keyless retries, under-reported sends).
    public var displayRate: Double? { Self.ratio(displayedUnique, sent) }
    /// `opened_unique / displayed_unique`; `nil` when nothing was displayed.
    public var openRate: Double? { Self.ratio(openedUnique, displayedUnique) }
    /// `influenced_opens / displayed_unique`; `nil` when nothing was displayed.
    public var influencedOpenRate: Double? { Self.ratio(outcomes.influencedOpens, displayedUnique) }

    static func ratio(_ numerator: Int64, _ denominator: Int64) -> Double? {
        denominator == 0 ? nil : Double(numerator) / Double(denominator)
    }

    /// Adds one send totals row (one sender's, or their sum); only a push with a `sent_at` counts towards the
    /// timed rates. Push figures and campaign rows both add rows through here.
    package mutating func addSends(targeted: Int64, sent: Int64, timed: Bool) {
        if !Self.add(targeted, to: &self.targeted) { markOutOfRange("targeted") }
        if !Self.add(sent, to: &self.sent) { markOutOfRange("sent") }
        if timed, !Self.add(sent, to: &sentTimed) { markOutOfRange("sent") }
    }

    /// Adds refusals for one reason (one sender's, or their sum).
    package mutating func addFailures(reason: String, count: Int64) {
        if !Self.add(count, to: &failedByReason[reason, default: 0]) { markOutOfRange("failed") }
        if !Self.add(count, to: &failed) { markOutOfRange("failed") }
    }

    /// Takes back a send record's counts (a platform split moves them to another row); its timed sends stay,
    /// with the time to display they are the base of.
    package mutating func removeSends(targeted: Int64, sent: Int64, failed: [String: Int64]) {
        addSends(targeted: -targeted, sent: -sent, timed: false)
        for (reason, count) in failed {
            addFailures(reason: reason, count: -count)
            if failedByReason[reason] == 0 { failedByReason[reason] = nil }
        }
    }

    /// Adds a send record's counts that named a platform, untimed (``removeSends(targeted:sent:failed:)``).
    package mutating func addPlatformSends(_ sends: PlatformSends) {
        addSends(targeted: sends.targeted, sent: sends.sent, timed: false)
        for (reason, count) in sends.failed { addFailures(reason: reason, count: count) }
    }

    /// Adds one superseded push's loss (``Superseding``).
    package mutating func addSupersededLoss(_ loss: Int64) {
        if !Self.add(loss, to: &supersededLoss) { markOutOfRange("superseded_loss") }
    }

    /// Adds one `rollup_push` row: its events (displays, or one action's) and its per-push counts.
    package mutating func addRollup(_ values: RollupAccumulator.Delta, kind: EventKind, action: String) {
        addEvents(EventCount(total: values.total, duplicates: values.duplicates), kind: kind, action: action)
        counts.add(values.counts)
    }

    /// Adds events of one kind and action: displays, or one action's count.
    package mutating func addEvents(_ count: EventCount, kind: EventKind, action: String) {
        if kind == .display {
            displays.add(count)
        } else {
            actions[action, default: EventCount()].add(count)
        }
    }

    /// Takes back events ``addEvents(_:kind:action:)`` added (a platform split moves them to another row); an
    /// action left with no events is no column of this funnel.
    package mutating func removeRollup(_ count: EventCount, kind: EventKind, action: String) {
        let negative = EventCount(total: -count.total, duplicates: -count.duplicates)
        if kind == .display {
            displays.add(negative)
        } else {
            actions[action, default: EventCount()].add(negative)
            if actions[action] == EventCount() { actions[action] = nil }
        }
    }

    /// Adds another funnel's counts (for a campaign: the sum of its pushes).
    public mutating func add(_ other: Funnel) {
        pushes += other.pushes
        if !Self.add(other.targeted, to: &targeted) { markOutOfRange("targeted") }
        if !Self.add(other.sent, to: &sent) { markOutOfRange("sent") }
        if !Self.add(other.sentTimed, to: &sentTimed) { markOutOfRange("sent") }
        for (reason, count) in other.failedByReason where !Self.add(count, to: &failedByReason[reason, default: 0]) {
            markOutOfRange("failed")
        }
        if !Self.add(other.failed, to: &failed) { markOutOfRange("failed") }
        displays.add(other.displays)
        for (action, count) in other.actions { actions[action, default: EventCount()].add(count) }
        latency.add(other.latency)
        counts.add(other.counts)
        outcomes.add(other.outcomes)
        supersededPushes += other.supersededPushes
        if !Self.add(other.supersededLoss, to: &supersededLoss) { markOutOfRange("superseded_loss") }
        media.add(other.media)
        fcm.add(other.fcm)
        if let field = other.outOfRange { markOutOfRange(field) }
    }
}
