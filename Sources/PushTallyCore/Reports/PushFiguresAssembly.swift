/// Assembles every push's figures from the rows a store reads: registrations, send totals, failures, rollups
/// and timing. Both engines feed it the same rows (each from its own queries), so a report cannot differ
/// between them.
///
/// Figures live in an array, found through an index by push id: a push's figures are a large value, and a
/// dictionary of them copied each one out and back on every row (a campaign report's largest Swift cost).
package struct PushFiguresAssembly: PushRowSink, Sendable {
    /// Keyed byte for byte (``ExactText``), as storage keys pushes.
    private var index: [ExactText: Int] = [:]
    private var pushes: [PushFigures] = []
    /// ``PushOrder``: positions by push id, made at the first lookup after registrations.
    private var order: PushOrder?

    /// Whether each push's events that named a platform are read (``PushFigures/platformEvents``).
    package let readsPlatforms: Bool

    /// - Parameter readsPlatforms: whether to read the events that named a platform, for a platform filter.
    package init(expectedPushes: Int = 1024, readsPlatforms: Bool = false) {
        self.readsPlatforms = readsPlatforms
        index.reserveCapacity(expectedPushes)
        pushes.reserveCapacity(expectedPushes)
    }

    /// The position of a push's figures, creating an orphan's.
    private mutating func position(ofOrphan pushID: String) -> Int {
        if let position = position(of: pushID) { return position }
        index[ExactText(pushID)] = pushes.count
        pushes.append(PushFigures(orphan: pushID))
        return pushes.count - 1
    }

    /// The position of a known push's figures: the rows after registrations come in push id order, so the
    /// order's next push is checked before hashing the id (hashing it for every row was a tenth of a report).
    private mutating func position(of pushID: String) -> Int? {
        if order == nil { order = PushOrder(pushes) }
        if let position = order!.expected(pushID, in: pushes) { return position }
        guard let position = index[ExactText(pushID)] else { return nil }
        order!.moved(to: position)
        return position
    }

    /// A registered push.
    package mutating func registered(
        pushID: String, campaign: String, title: String?, sentAtMillis: Int64?, app: String?, environment: String?,
        attributes: SendAttributes = SendAttributes()
    ) {
        var funnel = Funnel()
        funnel.pushes = 1
        var figures = PushFigures(
            pushID: pushID, campaign: campaign, title: title, sentAtMillis: sentAtMillis, app: app,
            environment: environment, firstEventMillis: nil, funnel: funnel)
        figures.attributes = attributes
        if let position = index[ExactText(pushID)] {
            pushes[position] = figures
        } else {
            index[ExactText(pushID)] = pushes.count
            pushes.append(figures)
        }
    }

    /// Send totals of a registered push (one sender's, or their sum); only a push with a `sent_at` counts
    /// towards the timed rates.
    package mutating func sends(pushID: String, targeted: Int64, sent: Int64) {
        guard let position = position(of: pushID) else { return }
        pushes[position].addSends(targeted: targeted, sent: sent)
    }

    /// Failures of a registered push for one reason (one sender's, or their sum).
    package mutating func failures(pushID: String, reason: String, count: Int64) {
        guard let position = position(of: pushID) else { return }
        pushes[position].funnel.addFailures(reason: reason, count: count)
    }

    /// One rollup row of a push; a push with rollups and no registration is an orphan.
    package mutating func rollup(pushID: String, kind: EventKind, action: String, values: RollupAccumulator.Delta) {
        pushes[position(ofOrphan: pushID)].add(values, kind: kind, action: action)
    }

    /// One outcome rollup row of a push (sessions and conversions credited to it). A push credited before
    /// anyone registered it is an orphan like one with receipts.
    package mutating func outcome(pushID: String, measure: OutcomeMeasure, currency: String, count: Int64, value: MoneyTotal) {
        pushes[position(ofOrphan: pushID)].funnel.outcomes.add(
            measure: measure, currency: currency, count: count, value: value)
    }

    /// One media rollup row of a push, added to its other rows.
    package mutating func media(pushID: String, outcomes: MediaOutcomes) {
        pushes[position(ofOrphan: pushID)].funnel.media.add(outcomes)
    }

    /// The events of a push's rollup row that named `platform`, kept beside its figures.
    package mutating func platform(pushID: String, platform: String, kind: EventKind, action: String, count: EventCount) {
        pushes[position(ofOrphan: pushID)].platformEvents.append(
            PlatformEvents(platform: platform, kind: kind, action: action, count: count))
    }

    /// Send totals of records that named `platform`, kept beside the push's figures (which count them too).
    package mutating func platformSends(pushID: String, platform: String, targeted: Int64, sent: Int64) {
        guard let position = position(of: pushID) else { return }
        pushes[position].platformSends.append(PlatformSends(platform: platform, targeted: targeted, sent: sent))
    }

    /// Failures of records that named `platform`, kept beside the push's figures (which count them too).
    package mutating func platformFailures(pushID: String, platform: String, reason: String, count: Int64) {
        guard let position = position(of: pushID) else { return }
        pushes[position].platformSends.append(PlatformSends(platform: platform, failed: [reason: count]))
    }

    /// Displays on a platform FCM did not deliver the push to, left out of its `displayed_of_delivered`.
    package mutating func fcmOtherPlatformDisplays(pushID: String, platform: String, count: EventCount) {
        pushes[position(ofOrphan: pushID)].funnel.fcm.otherPlatformDisplays += count.unique
    }

    /// FCM's count of one event, in the push's figures and by platform beside them.
    package mutating func fcm(pushID: String, platform: String, event: String, count: Int64) {
        let position = position(ofOrphan: pushID)
        pushes[position].funnel.fcm.add(event: event, count: count)
        pushes[position].platformFCM.append(PlatformFCM(platform: platform, event: event, count: count))
    }

    /// One row of a push's histogram read count by count (`count(bucket)`), with no histogram built per row.
    package mutating func timing(pushID: String, count: (_ bucket: Int) -> Int64) {
        guard let position = position(of: pushID) else { return }
        pushes[position].funnel.latency.add(count: count)
    }

    /// The pushes `filter` selects, by push id; a push whose figures did not add up in 64 bits throws.
    package func figures(_ filter: ReportFilter) throws(TotalOutOfRange) -> [PushFigures] {
        let figures = selected(filter).map { pushes[$0] }
        for push in figures { try push.funnel.checkRange() }
        return figures
    }

    /// ``figures(_:)``, moved out rather than copied (a report would otherwise copy every push's strings and
    /// tables); the assembly is empty afterwards.
    package mutating func takeFigures(_ filter: ReportFilter) throws(TotalOutOfRange) -> [PushFigures] {
        let selected = selected(filter)
        for position in selected { try pushes[position].funnel.checkRange() }
        var figures: [PushFigures] = []
        swap(&figures, &pushes)
        index = [:]
        order = nil
        PushOrder.permute(&figures, into: selected)
        return figures
    }

    /// Positions of the pushes `filter` selects, in push id order.
    private func selected(_ filter: ReportFilter) -> [Int] {
        // Positions are sorted, not the figures themselves: moving a large value per comparison showed.
        let sorted = order.flatMap { $0.positions.count == pushes.count ? $0.positions : nil }
            ?? pushes.indices.sorted { pushes[$0].pushID < pushes[$1].pushID }
        return sorted.filter { filter.includes(pushes[$0]) }
    }
}

extension PushFigures {
    /// A push with receipts but no registration.
    package init(orphan pushID: String) {
        var funnel = Funnel()
        funnel.pushes = 1
        self.init(pushID: pushID, firstEventMillis: nil, funnel: funnel)
    }

    fileprivate mutating func addSends(targeted: Int64, sent: Int64) {
        funnel.addSends(targeted: targeted, sent: sent, timed: sentAtMillis != nil)
    }

    fileprivate mutating func add(_ values: RollupAccumulator.Delta, kind: EventKind, action: String) {
        funnel.addRollup(values, kind: kind, action: action)
        firstEventMillis = min(firstEventMillis ?? values.firstTime, values.firstTime)
    }
}
