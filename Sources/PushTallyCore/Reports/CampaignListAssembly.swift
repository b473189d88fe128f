/// The campaign list's rows, the one implementation of them: the campaigns report's rows are a store's rows
/// summed straight into their campaign's funnel as they are read (``PushRowSink``), with no figures per push,
/// whatever the filter. Figures a caller already holds are added whole (``add(_:)``).
/// Either way the rows are assembled in named steps: a push is admitted by the filter (by its first event under
/// a time range when it has no `sent_at`: ``FirstEventAdmission``), its counts go to its row
/// (``CampaignRowTable``: campaign, grouping value, platform), its platform's events move to their platform's
/// row, and at the end each row gets its push ids and supersessions and the rows are listed in order.
///
/// Building a large figures value per push (a histogram array and dictionaries each) and then adding them up
/// was most of a campaign report's Swift time, so rows are summed as read. Per push only
/// what a row needs beyond plain sums is kept: its campaign row, `sent_at`, and the sent and displayed counts a
/// supersession's loss is made of.
///
/// A filter on time (`from`/`to`) keeps a push by its `sent_at`, or by its first event when it has none: such an
/// assembly asks for first events (``readsFirstEvents``), which come after registrations and before any count,
/// so a push's row is settled before its counts arrive and nothing is read twice.
///
/// Split by platform (`by=platform`, or a `platform` filter), a push's own row is its campaign's `unknown`
/// one; each platform's events are then moved from it to their platform's row. What belongs to the push and
/// not to an event (its count, time to display, outcomes, supersession) stays in `unknown`, and so do the sends
/// and failures of records that named no platform; a record that named one is moved whole to its platform's row,
/// as FCM's events are counted in the row of the platform FCM sent to.
package struct CampaignListAssembly: PushRowSink, Sendable {
    /// What one push contributes beyond the sums.
    private struct Push: Sendable {
        let pushID: String
        /// Its row in ``CampaignListAssembly/table``; `nil` for a push the filter leaves out.
        var row: Int?
        let sentAtMillis: Int64?
        let collapses: Bool
        /// `false` for an orphan: send records name registered pushes only.
        var registered = true
        /// The platform rows its events were moved to (``platform(pushID:platform:kind:action:count:)``).
        var platformRows: [Int] = []
        var sent: Int64 = 0
        var displays = EventCount()
    }

    private let filter: ReportFilter
    private var admission: FirstEventAdmission
    private var table: CampaignRowTable
    private var pushes: [Push] = []
    /// Keyed byte for byte (``ExactText``), as storage keys pushes.
    private var index: [ExactText: Int] = [:]
    private var order: PushOrder?
    /// Whether pushes came as whole figures (``add(_:)``): rows list those in the order given.
    private var givenInOrder = false

    package init(_ filter: ReportFilter, by grouping: ReportGrouping?, expectedPushes: Int = 1024) {
        self.filter = filter
        admission = FirstEventAdmission(filter)
        table = CampaignRowTable(grouping: grouping, splitsPlatforms: grouping == .platform || filter.platform != nil)
        index.reserveCapacity(expectedPushes)
        pushes.reserveCapacity(expectedPushes)
    }

    /// Whether any kept push has a collapse id: only then can one be superseded (``rows(supersessions:)``).
    package var needsSupersessions: Bool {
        pushes.contains { $0.collapses && $0.row != nil }
    }

    package mutating func registered(
        pushID: String, campaign: String, title: String?, sentAtMillis: Int64?, app: String?, environment: String?,
        attributes: SendAttributes
    ) {
        // The pushes table is keyed by push id: a second registration of one cannot come.
        guard index[ExactText(pushID)] == nil else { return }
        var row: Int?
        if filter.includes(campaign: campaign, pushID: pushID, app: app, environment: environment),
            admission.registered(position: pushes.count, campaign: campaign, attributes: attributes, sentAtMillis: sentAtMillis)
        {
            row = table.row(campaign: campaign, attributes: attributes)
            table[row!].funnel.pushes += 1
        }
        index[ExactText(pushID)] = pushes.count
        pushes.append(Push(pushID: pushID, row: row, sentAtMillis: sentAtMillis, collapses: attributes.collapseID != nil))
    }

    /// First events settle the time filter: only then are they read.
    package var readsFirstEvents: Bool { filter.hasTimeRange }

    /// Keeps a push without `sent_at` (registered, or an orphan, made here) if its first event is in range.
    package mutating func firstEvent(pushID: String, millis: Int64) {
        guard let position = position(of: pushID) else {
            _ = orphan(pushID, kept: filter.includes(referenceMillis: millis))
            return
        }
        guard let admitted = admission.firstEvent(position: position, millis: millis) else { return }
        let row = table.row(campaign: admitted.campaign, attributes: admitted.attributes)
        table[row].funnel.pushes += 1
        pushes[position].row = row
    }

    /// A push whose figures are already summed, counted whole in its row (superseding loss included, as
    /// ``Superseding/apply(_:to:)`` counts it in the figures). The filter is the figures' business: every push
    /// given is kept.
    package mutating func add(_ push: PushFigures) {
        let row = table.row(campaign: push.campaign, attributes: push.attributes)
        table[row].funnel.add(push.funnel)
        // No index entry: whole figures get no rows after them to look the push up by.
        givenInOrder = true
        pushes.append(Push(pushID: push.pushID, row: row, sentAtMillis: push.sentAtMillis, collapses: false))
    }

    package mutating func sends(pushID: String, targeted: Int64, sent: Int64) {
        guard let position = position(ofRegistered: pushID), let row = pushes[position].row else { return }
        let (total, overflow) = pushes[position].sent.addingReportingOverflow(sent)
        if overflow { table[row].funnel.markOutOfRange("sent") } else { pushes[position].sent = total }
        table[row].funnel.addSends(targeted: targeted, sent: sent, timed: pushes[position].sentAtMillis != nil)
    }

    package mutating func failures(pushID: String, reason: String, count: Int64) {
        guard let position = position(ofRegistered: pushID), let row = pushes[position].row else { return }
        table[row].funnel.addFailures(reason: reason, count: count)
    }

    package mutating func rollup(pushID: String, kind: EventKind, action: String, values: RollupAccumulator.Delta) {
        guard let position = position(ofOrphan: pushID), let row = pushes[position].row else { return }
        if kind == .display { pushes[position].displays.add(EventCount(total: values.total, duplicates: values.duplicates)) }
        table[row].funnel.addRollup(values, kind: kind, action: action)
    }

    package mutating func timing(pushID: String, count: (_ bucket: Int) -> Int64) {
        guard let position = position(of: pushID), let row = pushes[position].row else { return }
        table[row].funnel.latency.add(count: count)
    }

    package mutating func outcome(pushID: String, measure: OutcomeMeasure, currency: String, count: Int64, value: MoneyTotal) {
        guard let position = position(ofOrphan: pushID), let row = pushes[position].row else { return }
        table[row].funnel.outcomes.add(measure: measure, currency: currency, count: count, value: value)
    }

    package var readsPlatforms: Bool { table.splitsPlatforms }

    /// Moves the events that named `platform` from the push's own row to its campaign's row of that platform.
    package mutating func platform(pushID: String, platform: String, kind: EventKind, action: String, count: EventCount) {
        guard let (home, target) = platformRows(of: pushID, platform: platform, registered: false), target != home else { return }
        table.withFunnels(home, target) { home, target in home.moveEvents(count, kind: kind, action: action, to: &target) }
    }

    /// Moves a send record's counts that named `platform` from the push's own row to its platform's row.
    package mutating func platformSends(pushID: String, platform: String, targeted: Int64, sent: Int64) {
        moveSends(pushID: pushID, PlatformSends(platform: platform, targeted: targeted, sent: sent))
    }

    /// Moves a send record's counts from the push's own row to its platform's row (nothing to move when that
    /// is the push's own row: a record that named `unknown`).
    private mutating func moveSends(pushID: String, _ sends: PlatformSends) {
        guard let (home, target) = platformRows(of: pushID, platform: sends.platform, registered: true), target != home else { return }
        table.withFunnels(home, target) { home, target in home.moveSends(sends, to: &target) }
    }

    /// Moves a send record's failures that named `platform` from the push's own row to its platform's row.
    package mutating func platformFailures(pushID: String, platform: String, reason: String, count: Int64) {
        moveSends(pushID: pushID, PlatformSends(platform: platform, failed: [reason: count]))
    }

    /// FCM's events go to the row of the platform they were sent to when split, else to the push's own row.
    package mutating func fcm(pushID: String, platform: String, event: String, count: Int64) {
        guard let position = position(ofOrphan: pushID), let home = pushes[position].row else { return }
        let target = table.splitsPlatforms ? platformRows(of: pushID, platform: platform, registered: false)?.target ?? home : home
        table[target].funnel.fcm.add(event: event, count: count)
    }

    /// Displays on a platform FCM did not deliver the push to: out of `displayed_of_delivered` in the push's own
    /// row. Split by platform, that platform's row has no FCM deliveries to be a share of.
    package mutating func fcmOtherPlatformDisplays(pushID: String, platform: String, count: EventCount) {
        guard !table.splitsPlatforms, let position = position(ofOrphan: pushID), let home = pushes[position].row else { return }
        table[home].funnel.fcm.otherPlatformDisplays += count.unique
    }

    /// The push's own row and its campaign's row of `platform` (made at its first count there, the push then
    /// counted among that row's pushes); `nil` for a push the filter leaves out, or, when `registered`, one
    /// nobody registered.
    private mutating func platformRows(of pushID: String, platform: String, registered: Bool) -> (home: Int, target: Int)? {
        guard let position = registered ? position(ofRegistered: pushID) : position(ofOrphan: pushID), let home = pushes[position].row else {
            return nil
        }
        let target = table.row(besides: home, platform: platform)
        if target != home, !pushes[position].platformRows.contains(target) {
            pushes[position].platformRows.append(target)
            table[target].funnel.pushes += 1
        }
        return (home, target)
    }

    package mutating func media(pushID: String, outcomes: MediaOutcomes) {
        guard let position = position(ofOrphan: pushID), let row = pushes[position].row else { return }
        table[row].funnel.media.add(outcomes)
    }

    /// The campaign rows, sorted by name then attribute value with orphans last, each superseded push's loss
    /// counted in its row as ``Superseding/apply(_:to:)`` counts it; the assembly is spent afterwards.
    /// A row whose figures did not add up in 64 bits throws (``Funnel/checkRange()``).
    package mutating func rows(supersessions: [String: Supersession] = [:]) throws(TotalOutOfRange) -> [CampaignRow] {
        let sorted = order.flatMap { $0.positions.count == pushes.count ? $0.positions : nil }
            ?? (givenInOrder ? Array(pushes.indices) : pushes.indices.sorted { pushes[$0].pushID < pushes[$1].pushID })
        for position in sorted {
            let push = pushes[position]
            guard let row = push.row else { continue }
            table[row].add(pushID: push.pushID, sentAtMillis: push.sentAtMillis)
            for platformRow in push.platformRows { table[platformRow].add(pushID: push.pushID, sentAtMillis: push.sentAtMillis) }
            if supersessions[push.pushID] != nil {
                table[row].funnel.supersededPushes += 1
                table[row].funnel.addSupersededLoss(max(0, push.sent - push.displays.unique))
            }
        }
        let campaigns = table.listed(platform: filter.platform)
        table = CampaignRowTable(grouping: nil, splitsPlatforms: table.splitsPlatforms)
        for row in campaigns { try row.funnel.checkRange() }
        return campaigns
    }

    /// The position of a push met so far (``PushOrder`` first, as ``PushFiguresAssembly`` finds it).
    private mutating func position(of pushID: String) -> Int? {
        let pushes = self.pushes
        if order == nil { order = PushOrder(count: pushes.count) { pushes[$0].pushID } }
        if let position = order!.expected(pushID, id: { pushes[$0].pushID }) { return position }
        guard let position = index[ExactText(pushID)] else { return nil }
        order!.moved(to: position)
        return position
    }

    /// The position of a registered push; `nil` for an orphan (made by a first event before the send rows).
    private mutating func position(ofRegistered pushID: String) -> Int? {
        guard let position = position(of: pushID), pushes[position].registered else { return nil }
        return position
    }

    /// The position of a push, an orphan's made at its first row: under a time filter, an orphan not met among
    /// the first events has none, so it is not kept.
    private mutating func position(ofOrphan pushID: String) -> Int? {
        if let position = position(of: pushID) { return position }
        return orphan(pushID, kept: !filter.hasTimeRange)
    }

    /// Makes an orphan's entry, in the orphan row when `kept` and the filter keeps it.
    private mutating func orphan(_ pushID: String, kept: Bool) -> Int {
        var row: Int?
        if kept, filter.includes(campaign: nil, pushID: pushID, app: nil, environment: nil) {
            row = table.row(campaign: nil, attributes: nil)
            table[row!].funnel.pushes += 1
        }
        index[ExactText(pushID)] = pushes.count
        pushes.append(Push(pushID: pushID, row: row, sentAtMillis: nil, collapses: false, registered: false))
        return pushes.count - 1
    }
}
