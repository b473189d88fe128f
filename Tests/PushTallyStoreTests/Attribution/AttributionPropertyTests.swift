import PushTallyCore
import PushTallyStores
import PushTallyTestSupport
import Testing

/// Random sessions, conversions, displays and taps, shuffled into random arrival orders and batches: every
/// report equals an independent recount from the raw events by the documented rules (``AttributionRecount``),
/// before and after a rebuild, whatever the order they arrived in.
@Suite struct AttributionPropertyTests {
    static let seeds: [UInt64] = Array(1...50)

    /// Stores the scenario's events in `order`, in batches of random sizes, after registering its pushes.
    static func ingest(
        _ scenario: AttributionScenario, order: [IncomingEvent], into store: any PushTallyStore, rng: inout SplitMix64
    ) async throws {
        for registration in scenario.registrations { try await store.register(registration) }
        var rest = order[...]
        while !rest.isEmpty {
            let size = Int.random(in: 1...40, using: &rng)
            _ = try await store.ingest(Array(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
    }

    @Test(arguments: StoreKind.allCases, seeds)
    func reportsEqualARecountWhateverTheArrivalOrder(kind: StoreKind, seed: UInt64) async throws {
        let scenario = AttributionScenario(seed: seed)
        let recount = AttributionRecount(scenario.events)
        var rng = SplitMix64(state: seed &* 7919)
        let clock = TestClock(AttributionScenario.now)
        try await withStore(kind, clock: clock.function) { store in
            try await Self.ingest(scenario, order: scenario.incoming.shuffled(using: &rng), into: store, rng: &rng)
            let incremental = try await AttributionSnapshot(store)
            expectFiguresMatch(incremental, recount, pushes: AttributionScenario.pushIDs, "seed \(seed), shuffled")
            try expectCampaignReportMatches(incremental.campaigns, recount, scenario: scenario, "seed \(seed)")

            try await store.rebuildRollups()
            let rebuilt = try await AttributionSnapshot(store)
            expectFiguresMatch(rebuilt, recount, pushes: AttributionScenario.pushIDs, "seed \(seed), rebuilt")
            #expect(rebuilt == incremental, "seed \(seed): a rebuild changed a report")
        }
    }

    /// The same events in time order and in a random order give the same reports, figure for figure.
    @Test(arguments: StoreKind.allCases, seeds.prefix(10))
    func timeOrderAndShuffledOrderGiveTheSameReports(kind: StoreKind, seed: UInt64) async throws {
        let scenario = AttributionScenario(seed: seed)
        let recount = AttributionRecount(scenario.events)
        var rng = SplitMix64(state: seed &* 104_729)
        let inTimeOrder = scenario.events.sorted { $0.time < $1.time }.map(AttributionScenario.incoming)
        let clock = TestClock(AttributionScenario.now)
        let ordered = try await withStore(kind, clock: clock.function) { store in
            try await Self.ingest(scenario, order: inTimeOrder, into: store, rng: &rng)
            return try await AttributionSnapshot(store)
        }
        expectFiguresMatch(ordered, recount, pushes: AttributionScenario.pushIDs, "seed \(seed), time order")
        let shuffled = try await withStore(kind, clock: clock.function) { store in
            try await Self.ingest(scenario, order: scenario.incoming.shuffled(using: &rng), into: store, rng: &rng)
            return try await AttributionSnapshot(store)
        }
        #expect(shuffled == ordered, "seed \(seed): arrival order changed a report")
    }
}
