/// The events of one push, kind and action that named one platform (a platform row of the version rollup).
package struct PlatformEvents: Sendable, Hashable {
    package var platform: String
    package var kind: EventKind
    package var action: String
    package var count: EventCount
}

extension Funnel {
    /// Moves events that named a platform from a push's own funnel (its `unknown` part) to its platform's: the
    /// one rule of a platform split, for the campaign list's rows (``CampaignListAssembly``) and a push's figures
    /// (``PushFigures/onPlatform(_:)``) alike. The events go; what belongs to the push (late displays, time to
    /// display, outcomes, media) stays.
    package mutating func moveEvents(_ count: EventCount, kind: EventKind, action: String, to platform: inout Funnel) {
        removeRollup(count, kind: kind, action: action)
        platform.addEvents(count, kind: kind, action: action)
    }

    /// Moves a send record that named a platform whole, its sends and failures, to the platform's funnel
    /// (untimed there: its time to display stays with the push).
    package mutating func moveSends(_ sends: PlatformSends, to platform: inout Funnel) {
        removeSends(targeted: sends.targeted, sent: sends.sent, failed: sends.failed)
        platform.addPlatformSends(sends)
    }
}

extension PushFigures {
    /// This push's figures narrowed to the events that named `platform`, as a platform row of the campaigns
    /// report counts them (``CampaignListAssembly``): a push's events are split by the platform they named, and
    /// what belongs to the push and not to an event (time to display, late displays, outcomes, media,
    /// supersession) stays with `unknown`, the events that named none, as do the sends and failures of records
    /// that named no platform; records that named one, and FCM's events, go with their platform. `nil` when no event of
    /// the push named `platform` (`unknown` keeps every push).
    package func onPlatform(_ platform: String) -> PushFigures? {
        let unknown = ReportGrouping.unknownPlatform
        let named = platformEvents.filter { $0.platform != unknown }
        let namedSends = platformSends.filter { $0.platform != unknown }
        var narrowed = self
        (narrowed.platformEvents, narrowed.platformSends, narrowed.platformFCM) = ([], [], [])
        if platform == unknown {
            var elsewhere = Funnel()
            for events in named { narrowed.funnel.moveEvents(events.count, kind: events.kind, action: events.action, to: &elsewhere) }
            for sends in namedSends { narrowed.funnel.moveSends(sends, to: &elsewhere) }
            narrowed.funnel.fcm = FCMFigures()
            for fcm in platformFCM where fcm.platform == unknown { narrowed.funnel.fcm.add(event: fcm.event, count: fcm.count) }
            return narrowed
        }
        let mine = named.filter { $0.platform == platform }
        let mySends = namedSends.filter { $0.platform == platform }
        let myFCM = platformFCM.filter { $0.platform == platform }
        guard !mine.isEmpty || !mySends.isEmpty || !myFCM.isEmpty else { return nil }
        var funnel = Funnel()
        funnel.pushes = 1
        var whole = self.funnel
        for events in mine { whole.moveEvents(events.count, kind: events.kind, action: events.action, to: &funnel) }
        for sends in mySends { whole.moveSends(sends, to: &funnel) }
        for fcm in myFCM { funnel.fcm.add(event: fcm.event, count: fcm.count) }
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
