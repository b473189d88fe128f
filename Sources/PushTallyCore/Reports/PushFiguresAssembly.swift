/// Assembles every push's figures from the rows a store reads: registrations, send totals, failures, rollups
/// and timing. Both engines feed it the same rows (each from its own queries), so a report cannot differ
/// between them.
package struct PushFiguresAssembly {
    private var pushes: [String: PushFigures] = [:]

    package init(expectedPushes: Int = 1024) {
        pushes.reserveCapacity(expectedPushes)
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
        pushes[pushID] = figures
    }

    /// A registered push's send totals (summed over its senders); only a push with a `sent_at` counts towards
    /// the timed rates.
    package mutating func sends(pushID: String, targeted: Int64, sent: Int64) {
        pushes[pushID]?.setSends(targeted: targeted, sent: sent)
    }

    /// A registered push's failures for one reason (summed over its senders).
    package mutating func failures(pushID: String, reason: String, count: Int64) {
        pushes[pushID]?.funnel.failedByReason[reason] = count
    }

    /// One rollup row of a push; a push with rollups and no registration is an orphan.
    package mutating func rollup(pushID: String, kind: EventKind, action: String, count: EventCount, late: Int64, firstEvent: Int64) {
        // Mutated in place: a push's figures are a large value, and a copy out and back per row showed.
        pushes[pushID, default: PushFigures(orphan: pushID)].add(
            count, kind: kind, action: action, late: late, firstEvent: firstEvent)
    }

    /// One outcome rollup row of a push (sessions and conversions credited to it). A push credited before
    /// anyone registered it is an orphan like one with receipts.
    package mutating func outcome(pushID: String, measure: OutcomeMeasure, currency: String, count: Int64, valueMicros: Int64) {
        pushes[pushID, default: PushFigures(orphan: pushID)].funnel.outcomes.add(
            measure: measure, currency: currency, count: count, valueMicros: valueMicros)
    }

    /// One row of a push's time-to-display histogram (live rollups may hold several, one per shard).
    package mutating func timing(pushID: String, histogram: LatencyHistogram) {
        pushes[pushID]?.funnel.latency.add(histogram)
    }

    /// The pushes `filter` selects, by push id.
    package func figures(_ filter: ReportFilter) -> [PushFigures] {
        pushes.keys.sorted().compactMap { id in pushes[id].flatMap { filter.includes($0) ? $0 : nil } }
    }
}

extension PushFigures {
    /// A push with receipts but no registration.
    package init(orphan pushID: String) {
        var funnel = Funnel()
        funnel.pushes = 1
        self.init(pushID: pushID, firstEventMillis: nil, funnel: funnel)
    }

    fileprivate mutating func setSends(targeted: Int64, sent: Int64) {
        funnel.targeted = targeted
        funnel.sent = sent
        funnel.sentTimed = sentAtMillis == nil ? 0 : sent
    }

    fileprivate mutating func add(_ count: EventCount, kind: EventKind, action: String, late: Int64, firstEvent: Int64) {
        if kind == .display {
            funnel.displays.add(count)
            funnel.late += late
        } else {
            funnel.actions[action, default: EventCount()].add(count)
        }
        firstEventMillis = min(firstEventMillis ?? firstEvent, firstEvent)
    }
}
