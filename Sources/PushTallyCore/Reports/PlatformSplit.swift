/// The events of one push, kind and action that named one platform (a platform row of the version rollup).
package struct PlatformEvents: Sendable, Hashable {
    package var platform: String
    package var kind: EventKind
    package var action: String
    package var count: EventCount
}

extension PushFigures {
    /// This push's figures narrowed to the events that named `platform`, as a platform row of the campaigns
    /// report counts them (``CampaignListAssembly``): a push's events are split by the platform they named, and
    /// what belongs to the push and not to an event (sends, failures, time to display, late displays,
    /// outcomes, media, supersession) stays with `unknown`, the events that named none. `nil` when no event of
    /// the push named `platform` (`unknown` keeps every push).
    package func onPlatform(_ platform: String) -> PushFigures? {
        let named = platformEvents.filter { $0.platform != ReportGrouping.unknownPlatform }
        var narrowed = self
        narrowed.platformEvents = []
        if platform == ReportGrouping.unknownPlatform {
            for events in named { narrowed.funnel.removeRollup(events.count, kind: events.kind, action: events.action) }
            return narrowed
        }
        let mine = named.filter { $0.platform == platform }
        guard !mine.isEmpty else { return nil }
        var funnel = Funnel()
        funnel.pushes = 1
        for events in mine { funnel.addRollup(events.count, kind: events.kind, action: events.action, late: 0) }
        narrowed.funnel = funnel
        narrowed.supersession = nil
        return narrowed
    }
}

extension Array where Element == PushFigures {
    /// Each push narrowed to `platform` (``PushFigures/onPlatform(_:)``); `nil` leaves them whole.
    package func onPlatform(_ platform: String?) -> [PushFigures] {
        guard let platform else { return self }
        return compactMap { $0.onPlatform(platform) }
    }
}
