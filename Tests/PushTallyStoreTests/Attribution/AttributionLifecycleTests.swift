import Foundation
import PushTallyCore
import PushTallyStores
import PushTallyTestSupport
import Testing

/// Late arrivals re-attribute, and forgetting a device, pruning and rebuilding leave every figure as it was.
@Suite struct AttributionLifecycleTests {
    @Test(arguments: StoreKind.allCases)
    func aDisplayArrivingAfterTheSessionItExplainsCreditsIt(kind: StoreKind) async throws {
        let session = Edge.session("s1", at: Edge.t + Edge.hour)
        try await Edge.run(kind, [[session], [Edge.display("p1", at: Edge.t)]]) { _, figures in
            #expect(figures.pushes["p1"]?.influencedOpens == 1)
            #expect(figures.totals.unattributedSessions == 0)
        }
        // A late tap then turns the influenced open into a direct one.
        try await Edge.run(kind, [[session], [Edge.display("p1", at: Edge.t)], [Edge.tap("p2", at: Edge.t + Edge.hour - 1)]]) { _, figures in
            #expect(figures.pushes["p1"] == nil)
            #expect(figures.pushes["p2"]?.directOpens == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSessionArrivingAfterItsConversionGivesTheFiguresOfTimeOrder(kind: StoreKind) async throws {
        let events = [
            Edge.display("p1", at: Edge.t), Edge.tap("p1", at: Edge.t + Edge.minute),
            Edge.session("s1", at: Edge.t + Edge.hour), Edge.conversion("c1", at: Edge.t + 2 * Edge.hour, micros: 990_000, currency: "USD"),
        ]
        let inTimeOrder = try await Edge.run(kind, events.map { [$0] }) { _, figures in figures }
        try await Edge.run(kind, events.reversed().map { [$0] }) { _, figures in
            #expect(figures == inTimeOrder)
            #expect(figures.pushes["p1"]?.influencedOpens == 1)
            #expect(figures.pushes["p1"]?.valueDirect == ["USD": 990_000])
        }
    }

    /// A conversion whose credit moves (unattributed, then influenced, then direct) leaves nothing behind where
    /// it was: no `0` under a currency, which a rebuild would not have either.
    @Test(arguments: StoreKind.allCases)
    func aCreditThatMovesLeavesNoCurrencyBehind(kind: StoreKind) async throws {
        let conversion = Edge.conversion("c1", at: Edge.t + 2 * Edge.hour, micros: 5_000_000, currency: "USD")
        let batches = [[conversion], [Edge.display("p1", at: Edge.t)], [Edge.tap("p2", at: Edge.t + Edge.hour)]]
        try await Edge.run(kind, batches) { store, figures in
            #expect(figures.pushes["p1"] == nil)
            #expect(figures.pushes["p2"]?.valueDirect == ["USD": 5_000_000])
            #expect(figures.totals.valueUnattributed.isEmpty && figures.totals.valueInfluenced.isEmpty)
            #expect(!CSVRenderer.render(figures.attribution).contains("unattributed_conversion_value:USD"))
            try await store.rebuildRollups()
            #expect(try await AttributionSnapshot(store) == figures)
        }
    }

    @Test(arguments: StoreKind.allCases, [5 as UInt64, 8])
    func forgettingADeviceKeepsEveryReportAndARebuildAfterItToo(kind: StoreKind, seed: UInt64) async throws {
        let scenario = AttributionScenario(seed: seed)
        var rng = SplitMix64(state: seed)
        try await withStore(kind, clock: TestClock(AttributionScenario.now).function) { store in
            try await AttributionPropertyTests.ingest(scenario, order: scenario.incoming.shuffled(using: &rng), into: store, rng: &rng)
            let before = try await AttributionSnapshot(store)
            expectFiguresMatch(before, AttributionRecount(scenario.events), pushes: AttributionScenario.pushIDs, "seed \(seed)")
            #expect(try await store.forget(deviceID: "dev-0") == scenario.events.filter { $0.device == "dev-0" }.count)
            #expect(try await AttributionSnapshot(store) == before, "seed \(seed): forget changed a report")
            try await store.rebuildRollups()
            #expect(try await AttributionSnapshot(store) == before, "seed \(seed): a rebuild after forget changed a report")
        }
    }

    /// Events received two days apart; a prune drops the first day's raw events, whose sessions and conversions
    /// keep their credit in the ledger and on what remains.
    @Test(arguments: StoreKind.allCases, [5 as UInt64, 8])
    func pruningThenRebuildingKeepsEveryReport(kind: StoreKind, seed: UInt64) async throws {
        let scenario = AttributionScenario(seed: seed)
        var rng = SplitMix64(state: seed)
        let firstReceipt = AttributionScenario.now - 2 * Edge.day
        let clock = TestClock(firstReceipt)
        try await withStore(kind, clock: clock.function) { store in
            let early = scenario.events.filter { $0.time <= firstReceipt }
            try await AttributionPropertyTests.ingest(scenario, order: early.map(AttributionScenario.incoming), into: store, rng: &rng)
            clock.advance(seconds: 2 * 86_400)
            let late = scenario.events.filter { $0.time > firstReceipt }.map(AttributionScenario.incoming)
            for event in late { _ = try await store.ingest([event]) }
            let before = try await AttributionSnapshot(store)
            expectFiguresMatch(before, AttributionRecount(scenario.events), pushes: AttributionScenario.pushIDs, "seed \(seed)")

            let pruned = try await store.prune(receivedBefore: AttributionScenario.now - Edge.day, batchSize: 7)
            #expect(pruned == early.count, "seed \(seed)")
            #expect(try await AttributionSnapshot(store) == before, "seed \(seed): a prune changed a report")
            try await store.rebuildRollups()
            #expect(try await AttributionSnapshot(store) == before, "seed \(seed): a rebuild after a prune changed a report")
        }
    }
}
