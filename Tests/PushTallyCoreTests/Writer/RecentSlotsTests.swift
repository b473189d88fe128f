import Testing

@testable import PushTallyCore

/// A dictionary changed through its recent slots holds what plain subscripting would, however its keys repeat,
/// alternate or make it grow; and a commit's rollups count the same through them.
@Suite struct RecentSlotsTests {
    /// A fixed pseudo-random sequence (a linear congruential generator), so a failure replays.
    struct Sequence: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    @Test func updatesMatchPlainSubscripting() {
        var random = Sequence(state: 42)
        var recent = RecentSlots<String, Int>()
        var updated: [String: Int] = [:]
        var plain: [String: Int] = [:]
        var key = "k0"
        for step in 0..<20_000 {
            // Runs of one key, returns to the key before it, and new keys that make the dictionary grow.
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: break
            case 5..<7: key = "k\(Int.random(in: 0..<3, using: &random))"
            default: key = "k\(Int.random(in: 0..<2_000, using: &random))"
            }
            let amount = step % 7 + 1
            updated.update(key, default: 0, recent: &recent) { $0 += amount }
            plain[key, default: 0] += amount
        }
        #expect(updated == plain)
        #expect(updated.count > 1_000)
    }

    @Test func twoAlternatingKeysSurviveTheGrowthOfTheDictionary() {
        var recent = RecentSlots<Int, Int>()
        var counts: [Int: Int] = [:]
        for step in 0..<1_000 {
            counts.update(-1, default: 0, recent: &recent) { $0 += 1 }
            counts.update(-2, default: 0, recent: &recent) { $0 += 1 }
            counts.update(step, default: 0, recent: &recent) { $0 += 1 }
        }
        #expect(counts[-1] == 1_000 && counts[-2] == 1_000)
        #expect(counts.count == 1_002 && (0..<1_000).allSatisfy { counts[$0] == 1 })
    }

    @Test func aCommitsRollupsCountEveryEventWhateverItsNeighbours() {
        let base: Int64 = 1_700_000_000_000
        // Two pushes interleaved, across two hours and several seconds, one of them timed and one pending.
        var events: [StoredEvent] = []
        for index in 0..<300 {
            let push = index % 3 == 0 ? "timed" : "pending"
            let time = base + Int64(index / 7) * 1_000 + (index % 50 == 0 ? 3_600_000 : 0)
            events.append(
                StoredEvent(IncomingEvent(pushID: push, kind: .display, deviceTimeMillis: time), receivedAt: base + 3_700_000))
        }
        let plan = CommitPlan(events, newKeys: [])
        let counter = plan.rollups(maturityWindow: 3_600_000, names: NameFold()) { $0 == "timed" ? base - 10_000 : nil }
        let accumulator = counter.accumulator
        for push in ["timed", "pending"] {
            let mine = events.filter { $0.pushID == push }
            #expect(accumulator.pushes[.init(pushID: push, kind: .display, action: "")]?.total == Int64(mine.count))
            let byHour = Dictionary(grouping: mine) { EventTime.bucket(ofMillis: $0.eventTime) }
            for (hour, inHour) in byHour {
                let key = RollupAccumulator.BucketKey(push: .init(pushID: push, kind: .display, action: ""), bucket: hour)
                #expect(accumulator.buckets[key]?.total == Int64(inHour.count))
            }
            #expect(accumulator.buckets.filter { $0.key.push.pushID == push }.count == byHour.count)
        }
        let pending = events.filter { $0.pushID == "pending" }
        let bySecond = Dictionary(grouping: pending) { floorSeconds($0.eventTime) }
        for (second, inSecond) in bySecond {
            #expect(accumulator.pending[.init(pushID: "pending", clock: 0, second: second)] == Int64(inSecond.count))
        }
        #expect(accumulator.pending[.init(pushID: "pending", clock: 1, second: floorSeconds(base + 3_700_000))] == Int64(pending.count))
        #expect(accumulator.pending.count == bySecond.count + 1)
        #expect(accumulator.latency["timed"]?.total == Int64(events.count - pending.count))
    }
}

extension RecentSlotsTests {
    @Test func aCopyTakenMidwayKeepsItsValuesAndTheOriginalCountsOn() {
        var recent = RecentSlots<String, Int>()
        var counts: [String: Int] = [:]
        for key in ["a", "a", "b"] { counts.update(key, default: 0, recent: &recent) { $0 += 1 } }
        let copy = counts
        // The slots still point into storage the copy shares: the next change copies it first.
        for key in ["b", "a", "a", "c"] { counts.update(key, default: 0, recent: &recent) { $0 += 1 } }
        #expect(copy == ["a": 2, "b": 1])
        #expect(counts == ["a": 4, "b": 2, "c": 1])
    }
}
