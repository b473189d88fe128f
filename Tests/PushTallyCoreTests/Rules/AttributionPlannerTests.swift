import Foundation
import Testing

@testable import PushTallyCore

/// The attribution rules alone, on hand-made device histories: what each engine runs after a commit.
@Suite struct AttributionPlannerTests {
    let minute: Int64 = 60_000
    let hour: Int64 = 3_600_000
    let planner = AttributionPlanner(windows: AttributionWindows())

    private func display(_ push: String, at time: Int64, row: Int64 = 0) -> AttributionPlanner.Event {
        AttributionPlanner.Event(
            row: row, kind: .display, pushID: push, action: "", time: time, clientID: nil, attribution: nil,
            valueMicros: nil, currency: nil)
    }

    private func tap(_ push: String, _ action: String = "open", at time: Int64) -> AttributionPlanner.Event {
        AttributionPlanner.Event(
            row: 0, kind: .action, pushID: push, action: action, time: time, clientID: nil, attribution: nil,
            valueMicros: nil, currency: nil)
    }

    private func session(
        _ id: String, at time: Int64, row: Int64, stored: Attribution? = nil
    ) -> AttributionPlanner.Event {
        AttributionPlanner.Event(
            row: row, kind: .session, pushID: "", action: "", time: time, clientID: id, attribution: stored,
            valueMicros: nil, currency: nil)
    }

    private func conversion(at time: Int64, row: Int64, stored: Attribution? = nil) -> AttributionPlanner.Event {
        AttributionPlanner.Event(
            row: row, kind: .conversion, pushID: "", action: "", time: time, clientID: nil, attribution: stored,
            valueMicros: 9_990_000, currency: "USD")
    }

    /// The new attribution of each changed row.
    private func credits(_ events: [AttributionPlanner.Event], from: Int64 = .min, frozenBefore: Int64 = .min) -> [Int64: Attribution] {
        Dictionary(uniqueKeysWithValues: planner.changes(events, from: from, frozenBefore: frozenBefore).map { ($0.event.row, $0.new) })
    }

    @Test func directOpenNeedsATapWithinFiveMinutesInclusive() {
        let t: Int64 = 100 * hour
        let edge = credits([display("p", at: t - hour), tap("p", at: t - 5 * minute), session("s", at: t, row: 1)])
        #expect(edge[1] == .direct(pushID: "p"))
        let past = credits([display("p", at: t - hour), tap("p", at: t - 5 * minute - 1), session("s", at: t, row: 1)])
        #expect(past[1] == .influenced(pushID: "p"))
        let sameInstant = credits([tap("q", at: t), session("s", at: t, row: 1)])
        #expect(sameInstant[1] == .direct(pushID: "q"))
    }

    @Test func aDismissIsNotATap() {
        let t: Int64 = 100 * hour
        let result = credits([tap("p", "dismiss", at: t - minute), session("s", at: t, row: 1)])
        #expect(result[1] == .unattributed)
        #expect(credits([tap("p", "view", at: t - minute), session("s", at: t, row: 1)])[1] == .direct(pushID: "p"))
    }

    @Test func influenceWindowIsTwentyFourHoursInclusive() {
        let t: Int64 = 100 * hour
        #expect(credits([display("p", at: t - 24 * hour), session("s", at: t, row: 1)])[1] == .influenced(pushID: "p"))
        #expect(credits([display("p", at: t - 24 * hour - 1), session("s", at: t, row: 1)])[1] == .unattributed)
        // A display after the session explains nothing.
        #expect(credits([display("p", at: t + 1), session("s", at: t, row: 1)])[1] == .unattributed)
    }

    @Test func aPushCountsOneInfluencedOpenPerDeviceAndTheEleventhDisplayBackIsNoCandidate() {
        let t: Int64 = 100 * hour
        var events = (0..<11).map { display("p\(String(format: "%02d", $0))", at: t + Int64($0) * minute) }
        events += (0..<11).map { session("s\(String(format: "%02d", $0))", at: t + hour + Int64($0) * minute, row: Int64($0) + 1) }
        let result = credits(events)
        // Sessions in time order take the latest push not yet credited: p10, p09, ... p01; the 11th display back
        // (p00) is not among the last 10, so the 11th session is unattributed.
        for index in 0..<10 {
            #expect(result[Int64(index) + 1] == .influenced(pushID: "p\(String(format: "%02d", 10 - index))"))
        }
        #expect(result[11] == .unattributed)
    }

    @Test func tiesInTimeGoToTheGreaterPushID() {
        let t: Int64 = 100 * hour
        #expect(credits([display("a", at: t - hour), display("b", at: t - hour), session("s", at: t, row: 1)])[1] == .influenced(pushID: "b"))
        #expect(credits([tap("a", at: t - minute), tap("b", at: t - minute), session("s", at: t, row: 1)])[1] == .direct(pushID: "b"))
    }

    @Test func conversionsAreDirectWithinThreeDaysElseInfluencedElseUnattributed() {
        let t: Int64 = 200 * hour
        #expect(credits([tap("p", at: t - 72 * hour), conversion(at: t, row: 1)])[1] == .direct(pushID: "p"))
        #expect(credits([tap("p", at: t - 72 * hour - 1), conversion(at: t, row: 1)])[1] == .unattributed)
        // A later display does not win over a tap within the conversion window: direct comes first.
        #expect(credits([tap("p", at: t - 48 * hour), display("q", at: t - hour), conversion(at: t, row: 1)])[1] == .direct(pushID: "p"))
        #expect(credits([display("q", at: t - 24 * hour), conversion(at: t, row: 1)])[1] == .influenced(pushID: "q"))
        // Conversions do not use up a push: two after one display are both influenced by it.
        let two = credits([display("q", at: t - hour), conversion(at: t, row: 1), conversion(at: t + 1, row: 2)])
        #expect(two[1] == .influenced(pushID: "q") && two[2] == .influenced(pushID: "q"))
    }

    @Test func onlyEventsFromTheChangeOnAreRecomputedAndEarlierCreditsStand() {
        let t: Int64 = 100 * hour
        // s1 already credited p (stored); a late display of q before s2 makes s2 influenced by q, and s1 keeps p.
        let events = [
            display("p", at: t - 2 * hour), session("s1", at: t - hour, row: 1, stored: .influenced(pushID: "p")),
            display("q", at: t - 30 * minute), session("s2", at: t, row: 2, stored: .influenced(pushID: "p")),
        ]
        let changes = planner.changes(events, from: t - 30 * minute)
        #expect(changes.map(\.event.row) == [2])
        #expect(changes.first?.new == .influenced(pushID: "q"))
        #expect(changes.first?.old == .influenced(pushID: "p"))
        // Unchanged credits produce no change at all.
        #expect(planner.changes([display("p", at: t - hour), session("s", at: t, row: 1, stored: .influenced(pushID: "p"))], from: .min).isEmpty)
    }

    @Test func creditsBeforeTheFrozenHorizonStayButUncreditedOnesAreAttributed() {
        let t: Int64 = 100 * hour
        let events = [
            display("p", at: t - hour), session("old", at: t, row: 1, stored: .unattributed),
            session("new", at: t + 1, row: 2),
        ]
        let result = credits(events, from: .min, frozenBefore: t + 1)
        #expect(result[1] == nil)
        #expect(result[2] == .influenced(pushID: "p"))
    }

    @Test func movingACreditTakesItFromTheOldPushInTheRollups() {
        let t: Int64 = 100 * hour
        let change = AttributionPlanner.Change(
            event: conversion(at: t, row: 1, stored: .influenced(pushID: "p")), new: .direct(pushID: "q"))
        var counter = RollupCounter(maturityWindow: 0, names: NameFold())
        counter.attribute(change)
        let outcomes = counter.accumulator.outcomes
        let p = outcomes[.init(pushID: "p", measure: .influencedConversion, currency: "USD")]
        let q = outcomes[.init(pushID: "q", measure: .directConversion, currency: "USD")]
        #expect(p?.count == -1 && p?.value == -9_990_000)
        #expect(q?.count == 1 && q?.value == 9_990_000)
    }

    @Test func touchesKeepTheEarliestTimeAndIgnoreRetriesDismissalsAndAnonymousEvents() {
        var touches = AttributionTouches()
        touches.add(kind: .display, action: "", deviceID: "d", eventTime: 50, duplicate: false)
        touches.add(kind: .session, action: "", deviceID: "d", eventTime: 40, duplicate: false)
        touches.add(kind: .display, action: "", deviceID: "e", eventTime: 10, duplicate: true)
        touches.add(kind: .action, action: "dismiss", deviceID: "f", eventTime: 10, duplicate: false)
        touches.add(kind: .display, action: "", deviceID: nil, eventTime: 10, duplicate: false)
        #expect(touches.sorted.map(\.deviceID) == ["d"])
        #expect(touches.devices["d"] == .init(from: 40, hasOutcome: true))
    }
}
