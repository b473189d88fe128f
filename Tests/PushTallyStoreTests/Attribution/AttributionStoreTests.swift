import Foundation
import PushTallyCore
import PushTallyStores
import PushTallyTestSupport
import Testing

/// Sessions and conversions through each store's writer, prune, rebuild, forget and export/import: the
/// engines store the credits the core's planner decides and count every move exactly once.
@Suite struct AttributionStoreTests {
    static let minute: Int64 = 60_000

    /// A push's outcomes as its report reads them.
    func outcomes(_ store: any PushTallyStore, push: String) async throws -> Outcomes {
        try #require(try await store.pushFigures().first { $0.pushID == push }).funnel.outcomes
    }

    /// Every figure attribution shows: each push's outcomes and the totals.
    func snapshot(_ store: any PushTallyStore) async throws -> [String: Outcomes] {
        var figures: [String: Outcomes] = ["": try await store.outcomeTotals(fromMillis: nil, toMillis: nil)]
        for push in try await store.pushFigures() { figures[push.pushID] = push.funnel.outcomes }
        return figures
    }

    func display(_ push: String, _ device: String, at time: Int64) -> IncomingEvent {
        IncomingEvent(pushID: push, kind: .display, deviceID: device, deviceTimeMillis: time)
    }

    func tap(_ push: String, _ device: String, at time: Int64) -> IncomingEvent {
        IncomingEvent(pushID: push, kind: .action, action: "open", deviceID: device, deviceTimeMillis: time)
    }

    @Test(arguments: StoreKind.allCases)
    func aSessionAfterADisplayIsAnInfluencedOpen(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            let now = clock.now
            _ = try await store.ingest([display("p1", "d1", at: now - 20 * Self.minute)])
            _ = try await store.ingest([.session(deviceID: "d1", sessionID: "s1", deviceTimeMillis: now - 5 * Self.minute)])
            // Another device's session has no display before it.
            _ = try await store.ingest([.session(deviceID: "d2", sessionID: "s1", deviceTimeMillis: now - Self.minute)])
            let push = try await outcomes(store, push: "p1")
            #expect(push.influencedOpens == 1)
            #expect(push.directOpens == 0)
            let totals = try await store.outcomeTotals(fromMillis: nil, toMillis: nil)
            #expect((totals.influencedOpens, totals.unattributedSessions, totals.sessions) == (1, 1, 2))
            let stored = try await store.textRows("SELECT attribution, attributed_push FROM events WHERE kind = 2 ORDER BY event_time")
            #expect(stored == [["2", "p1"], ["0", nil]])
        }
    }

    /// A tap arriving after the session it explains moves the credit: the influenced open becomes a direct
    /// one, every rollup row moves with it and nothing is counted twice.
    @Test(arguments: StoreKind.allCases)
    func aLateTapMakesTheSessionDirect(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            let now = clock.now
            _ = try await store.ingest([display("p1", "d1", at: now - 30 * Self.minute)])
            _ = try await store.ingest([.session(deviceID: "d1", sessionID: "s1", deviceTimeMillis: now - 5 * Self.minute)])
            #expect(try await outcomes(store, push: "p1").influencedOpens == 1)
            _ = try await store.ingest([tap("p1", "d1", at: now - 7 * Self.minute)])
            let push = try await outcomes(store, push: "p1")
            #expect((push.directOpens, push.influencedOpens) == (1, 0))
            let totals = try await store.outcomeTotals(fromMillis: nil, toMillis: nil)
            #expect((totals.directOpens, totals.influencedOpens, totals.unattributedSessions) == (1, 0, 0))
            // Per measure, the rows (of every shard) add up to exactly one session.
            let measures = try await store.textRows(
                "SELECT measure, CAST(SUM(count) AS BIGINT) FROM rollup_outcome GROUP BY measure ORDER BY measure")
            #expect(measures == [["1", "1"], ["2", "0"]])
            // A retry of the tap changes nothing.
            _ = try await store.ingest([tap("p1", "d1", at: now - 7 * Self.minute)])
            #expect(try await snapshot(store)["p1"] == push)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func conversionValuesAddUpPerCurrency(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            let now = clock.now
            _ = try await store.ingest([display("p1", "d1", at: now - 60 * Self.minute), tap("p2", "d2", at: now - 60 * Self.minute)])
            _ = try await store.ingest([
                .conversion(deviceID: "d1", name: "purchase", valueMicros: 9_990_000, currency: "USD", conversionID: "c1",
                            deviceTimeMillis: now - 10 * Self.minute),
                .conversion(deviceID: "d1", name: "purchase", valueMicros: 5_000_000, currency: "EUR", deviceTimeMillis: now - 9 * Self.minute),
                .conversion(deviceID: "d1", name: "signup", deviceTimeMillis: now - 8 * Self.minute),
                .conversion(deviceID: "d2", name: "purchase", valueMicros: 1_000_000, currency: "USD", deviceTimeMillis: now - 7 * Self.minute),
                .conversion(deviceID: "d3", name: "purchase", valueMicros: 2_500_000, currency: "USD", deviceTimeMillis: now - 6 * Self.minute),
            ])
            // A retry by conversion id counts once.
            let retry = try await store.ingest([
                .conversion(deviceID: "d1", name: "purchase", valueMicros: 9_990_000, currency: "USD", conversionID: "c1",
                            deviceTimeMillis: now - 10 * Self.minute)
            ])
            #expect(retry == [true])
            let influenced = try await outcomes(store, push: "p1")
            #expect((influenced.conversionsInfluenced, influenced.conversionsDirect) == (3, 0))
            #expect(influenced.conversionValue == ["USD": 9_990_000, "EUR": 5_000_000])
            let direct = try await outcomes(store, push: "p2")
            #expect((direct.conversionsDirect, direct.conversionValue) == (1, ["USD": 1_000_000]))
            let totals = try await store.outcomeTotals(fromMillis: nil, toMillis: nil)
            #expect(totals.allConversions == 5)
            #expect(totals.valueUnattributed == ["USD": 2_500_000])
        }
    }

    /// A stream of displays, taps, sessions and conversions over several days, some arriving late.
    func load(_ store: any PushTallyStore, clock: TestClock, days: Int = 4) async throws {
        var rng = SplitMix64(state: 18)
        for day in 0..<days {
            var events: [IncomingEvent] = []
            for index in 0..<60 {
                let device = "d\(Int.random(in: 0..<6, using: &rng))"
                let time = clock.now - Int64.random(in: 0..<(36 * 60), using: &rng) * Self.minute
                let push = "p\(Int.random(in: 0..<4, using: &rng))"
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: events.append(display(push, device, at: time))
                case 1: events.append(tap(push, device, at: time))
                case 2: events.append(.session(deviceID: device, sessionID: "s\(day)-\(index)", deviceTimeMillis: time))
                default:
                    events.append(.conversion(
                        deviceID: device, name: "buy", valueMicros: Int64(index) * 10_000, currency: ["USD", "EUR"][index % 2],
                        deviceTimeMillis: time))
                }
            }
            // In small commits, so later ones re-attribute what earlier ones stored.
            for start in stride(from: 0, to: events.count, by: 7) {
                _ = try await store.ingest(Array(events[start..<min(events.count, start + 7)]))
            }
            clock.advance(seconds: 86_400)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pruningChangesNoFigureAndRebuildAgrees(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            let start = clock.now
            try await load(store, clock: clock)
            let before = try await snapshot(store)
            #expect((before[""]?.sessions ?? 0) > 0 && (before[""]?.allConversions ?? 0) > 0)
            try await store.rebuildRollups()
            #expect(try await snapshot(store) == before, "a rebuild re-derives the credits ingest stored")
            let pruned = try await store.prune(receivedBefore: start + 2 * 86_400_000, batchSize: 50)
            #expect(pruned > 0)
            #expect(try await snapshot(store) == before, "pruned credits live on in the ledger")
            try await store.rebuildRollups()
            #expect(try await snapshot(store) == before, "rebuild after prune: ledger plus frozen credits")
            let cutoff = try await store.column("SELECT value FROM meta WHERE key = '\(AttributionSchema.prunedBeforeKey)'")
            #expect(cutoff == [String(start + 2 * 86_400_000)])
            // An earlier cutoff never moves the note back.
            _ = try await store.prune(receivedBefore: start, batchSize: 50)
            #expect(try await store.column("SELECT value FROM meta WHERE key = 'pruned_before'") == cutoff)
            _ = try await store.prune(receivedBefore: clock.now + 1, batchSize: 50)
            #expect(try await store.rawEventCount() == 0)
            #expect(try await snapshot(store) == before)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func forgetRemovesADevicesSessionsButKeepsFigures(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            let now = clock.now
            let session = IncomingEvent.session(deviceID: "d1", sessionID: "s1", deviceTimeMillis: now - Self.minute)
            _ = try await store.ingest([display("p1", "d1", at: now - 10 * Self.minute), session])
            _ = try await store.ingest([
                .conversion(deviceID: "d1", name: "buy", valueMicros: 1_000_000, currency: "USD", conversionID: "c1"),
                .session(deviceID: "d2", sessionID: "s1", deviceTimeMillis: now - Self.minute),
            ])
            let before = try await snapshot(store)
            #expect(try await store.forget(deviceID: "d1") == 3)
            #expect(try await store.integers("SELECT count(*) FROM events WHERE kind >= 2") == [1], "d2's session stays")
            #expect(try await snapshot(store) == before)
            // Its dedupe keys went too: the same session id from the device is new again.
            #expect(try await store.ingest([session]) == [false])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func exportAndImportGiveTheSameFigures(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { source in
            try await load(source, clock: clock, days: 2)
            let exported = EventsBox()
            let count = try await source.exportEvents(sinceMillis: nil, untilMillis: nil) { exported.append($0) }
            #expect(count == exported.events.count)
            #expect(exported.events.contains { $0.value_micros != nil && $0.currency != nil && $0.event == "buy" })
            let expected = try await snapshot(source)
            let id = try await source.databaseID()
            try await withStore(kind, clock: clock.function) { (target: any TestStore) async throws -> Void in
                // Newest first: the importing store attributes by event time whatever the order.
                #expect(try await target.importEvents(Array(exported.events.reversed()), source: id) == count)
                #expect(try await snapshot(target) == expected)
                #expect(try await target.importEvents(exported.events, source: id) == 0, "a second import adds nothing")
            }
        }
    }
}

/// Exported events collected by a `@Sendable` callback.
final class EventsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [ExportedEvent] = []

    func append(_ event: ExportedEvent) {
        lock.withLock { collected.append(event) }
    }

    var events: [ExportedEvent] { lock.withLock { collected } }
}
