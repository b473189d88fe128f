/// What a store's report reads feed, table by table and in this order (``PushRowRead``): registrations first,
/// then first events when the sink asks for them, send totals, failures, rollups, timing, outcomes, FCM and
/// media, then the platform rows when the sink splits by platform, each row naming its push. Engines only run
/// the reads (``ReportReader/readPushRows(_:into:)``); what the rows make is the sink's: ``PushFiguresAssembly``
/// keeps every push's figures, ``CampaignListAssembly`` only the campaign rows' sums.
public protocol PushRowSink {
    /// A registered push.
    mutating func registered(
        pushID: String, campaign: String, title: String?, sentAtMillis: Int64?, app: String?, environment: String?,
        attributes: SendAttributes)
    /// Whether the sink is fed ``firstEvent(pushID:millis:)`` before any count.
    var readsFirstEvents: Bool { get }
    /// The earliest event time of a push with events, registered or not: fed after every registration and
    /// before any count, so that a sink filtering on time knows which pushes count before their counts come.
    mutating func firstEvent(pushID: String, millis: Int64)
    /// Send totals of a registered push, added to those of its other rows: one row per sender, or their sum.
    mutating func sends(pushID: String, targeted: Int64, sent: Int64)
    /// Failures of a registered push for one reason, added to those of its other rows (one per sender, or
    /// their sum).
    mutating func failures(pushID: String, reason: String, count: Int64)
    /// One `rollup_push` row of a push, its value columns as ``RollupTable/push`` declares them (a new column
    /// there comes in `values` with no change here); a push with rollups and no registration is an orphan.
    mutating func rollup(pushID: String, kind: EventKind, action: String, values: RollupAccumulator.Delta)
    /// One row of a registered push's histogram read count by count (`count(bucket)`).
    mutating func timing(pushID: String, count: (_ bucket: Int) -> Int64)
    /// One outcome rollup row of a push; a push credited before anyone registered it is an orphan.
    mutating func outcome(pushID: String, measure: OutcomeMeasure, currency: String, count: Int64, value: MoneyTotal)
    /// Whether the sink splits counts by platform: only then is it fed ``platform(pushID:platform:kind:action:count:)``.
    var readsPlatforms: Bool { get }
    /// The events of a push's rollup row that named `platform`, fed after every other row.
    mutating func platform(pushID: String, platform: String, kind: EventKind, action: String, count: EventCount)
    /// A registered push's send totals of records that named `platform`, fed after its ``sends(pushID:targeted:sent:)``
    /// rows (which count them too) when the sink splits by platform.
    mutating func platformSends(pushID: String, platform: String, targeted: Int64, sent: Int64)
    /// A registered push's failures of records that named `platform`, as ``platformSends(pushID:platform:targeted:sent:)``.
    mutating func platformFailures(pushID: String, platform: String, reason: String, count: Int64)
    /// FCM's count of one event for a push and the platform it went to (``FCMDeliverySchema``); a push with
    /// one and no registration is an orphan.
    mutating func fcm(pushID: String, platform: String, event: String, count: Int64)
    /// A push's displays that named `platform`, one FCM delivered none of the push to, fed after its FCM rows
    /// (``FCMFigures/otherPlatformDisplays``).
    mutating func fcmOtherPlatformDisplays(pushID: String, platform: String, count: EventCount)
    /// One media rollup row of a push (its unique displays by media outcome, with their extension times),
    /// added to its other rows; a push with one and no registration is an orphan.
    mutating func media(pushID: String, outcomes: MediaOutcomes)
}

extension PushRowSink {
    package var readsFirstEvents: Bool { false }

    package mutating func firstEvent(pushID: String, millis: Int64) {}

    package var readsPlatforms: Bool { false }

    package mutating func platform(pushID: String, platform: String, kind: EventKind, action: String, count: EventCount) {}

    package mutating func platformSends(pushID: String, platform: String, targeted: Int64, sent: Int64) {}

    package mutating func platformFailures(pushID: String, platform: String, reason: String, count: Int64) {}

    /// One row of a push's histogram as a whole (PostgreSQL reads it as one array).
    package mutating func timing(pushID: String, histogram: LatencyHistogram) {
        timing(pushID: pushID) { histogram.counts[$0] }
    }
}
