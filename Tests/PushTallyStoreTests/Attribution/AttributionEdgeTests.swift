import Foundation
import PushTallyCore
import PushTallyStores
import PushTallyTestSupport
import Testing

/// Small events on one or two devices, for the figures at the window edges.
enum Edge {
    static let minute: Int64 = 60_000
    static let hour: Int64 = 60 * minute
    static let day: Int64 = 24 * hour
    /// Early enough that a conversion 3 days and a millisecond later is still in the past.
    static let t = AttributionScenario.now - 5 * day

    static func display(_ push: String, at time: Int64, device: String = "dev-a") -> ScenarioEvent {
        ScenarioEvent(device: device, kind: .display, push: push, time: time)
    }

    static func tap(_ push: String, _ action: String = "open", at time: Int64, device: String = "dev-a") -> ScenarioEvent {
        ScenarioEvent(device: device, kind: .action(action), push: push, time: time)
    }

    static func session(_ id: String, at time: Int64, device: String = "dev-a") -> ScenarioEvent {
        ScenarioEvent(device: device, kind: .session, time: time, id: id)
    }

    static func conversion(
        _ id: String?, at time: Int64, micros: Int64? = nil, currency: String? = nil, device: String = "dev-a"
    ) -> ScenarioEvent {
        ScenarioEvent(device: device, kind: .conversion, time: time, id: id, valueMicros: micros, currency: currency)
    }

    /// Stores `batches` one commit after another on a store whose clock is the scenario's, checks the figures
    /// against the recount, and hands the store and its figures to `body`.
    @discardableResult
    static func run<T>(
        _ kind: StoreKind, _ batches: [[ScenarioEvent]], registrations: [PushRegistration] = [],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (any TestStore, AttributionSnapshot) async throws -> T
    ) async throws -> T {
        let clock = TestClock(AttributionScenario.now)
        return try await withStore(kind, clock: clock.function) { store in
            for registration in registrations { try await store.register(registration) }
            for batch in batches { _ = try await store.ingest(batch.map(AttributionScenario.incoming)) }
            let snapshot = try await AttributionSnapshot(store)
            let pushes = Set(batches.joined().map(\.push).filter { !$0.isEmpty })
            expectFiguresMatch(snapshot, AttributionRecount(Array(batches.joined())), pushes: Array(pushes), "\(kind)", sourceLocation: sourceLocation)
            return try await body(store, snapshot)
        }
    }
}

@Suite struct AttributionEdgeTests {
    @Test(arguments: StoreKind.allCases)
    func aTapExactlyFiveMinutesBeforeASessionIsDirectAndOneMillisecondMoreIsNot(kind: StoreKind) async throws {
        let tap = Edge.t + Edge.minute
        try await Edge.run(kind, [[
            Edge.display("p1", at: Edge.t), Edge.tap("p1", at: tap), Edge.session("s1", at: tap + 5 * Edge.minute),
            Edge.display("p1", at: Edge.t, device: "dev-b"), Edge.tap("p1", at: tap, device: "dev-b"),
            Edge.session("s1", at: tap + 5 * Edge.minute + 1, device: "dev-b"),
        ]]) { _, figures in
            // dev-b's session is past the direct window, so p1's display (minutes before) influenced it.
            #expect(figures.pushes["p1"]?.directOpens == 1)
            #expect(figures.pushes["p1"]?.influencedOpens == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aDisplayExactly24HoursBeforeASessionInfluencesItAndOneMillisecondMoreDoesNot(kind: StoreKind) async throws {
        try await Edge.run(kind, [[
            Edge.display("p1", at: Edge.t), Edge.session("s1", at: Edge.t + Edge.day),
            Edge.display("p1", at: Edge.t, device: "dev-b"), Edge.session("s1", at: Edge.t + Edge.day + 1, device: "dev-b"),
        ]]) { _, figures in
            #expect(figures.pushes["p1"]?.influencedOpens == 1)
            #expect(figures.totals.unattributedSessions == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aTapExactly3DaysBeforeAConversionMakesItDirectAndOneMillisecondMoreDoesNot(kind: StoreKind) async throws {
        let conversion = Edge.t + 3 * Edge.day
        try await Edge.run(kind, [[
            Edge.tap("p1", at: Edge.t), Edge.display("p2", at: conversion - Edge.hour),
            Edge.conversion("c1", at: conversion),
            Edge.tap("p1", at: Edge.t, device: "dev-b"), Edge.display("p2", at: conversion - Edge.hour, device: "dev-b"),
            Edge.conversion("c1", at: conversion + 1, device: "dev-b"),
        ]]) { _, figures in
            // The direct credit wins over the later display; without it, the display influenced the conversion.
            #expect(figures.pushes["p1"]?.conversionsDirect == 1)
            #expect(figures.pushes["p2"]?.conversionsDirect == 0 && figures.pushes["p2"]?.conversionsInfluenced == 1)
            #expect(figures.pushes["p1"]?.conversionsInfluenced == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func onlyTheTenLatestDisplaysAreCandidatesSoTheEleventhSessionIsUnattributed(kind: StoreKind) async throws {
        let pushes = (0..<11).map { String(format: "p%02d", $0) }
        let displays = pushes.enumerated().map { Edge.display($1, at: Edge.t + Int64($0) * Edge.minute) }
        let sessions = (0..<11).map { Edge.session("s\($0 + 10)", at: Edge.t + Edge.hour + Int64($0) * Edge.minute) }
        try await Edge.run(kind, [displays + sessions]) { _, figures in
            // p00 is the 11th display back from every session: never a candidate, though within 24 hours.
            #expect(figures.pushes["p00"] == nil)
            for push in pushes.dropFirst() { #expect(figures.pushes[push]?.influencedOpens == 1, "\(push)") }
            #expect(figures.totals.influencedOpens == 10 && figures.totals.unattributedSessions == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPushCountsOneInfluencedOpenPerDevice(kind: StoreKind) async throws {
        try await Edge.run(kind, [[
            Edge.display("p1", at: Edge.t), Edge.session("s1", at: Edge.t + Edge.hour), Edge.session("s2", at: Edge.t + 2 * Edge.hour),
            Edge.display("p1", at: Edge.t, device: "dev-b"), Edge.session("s1", at: Edge.t + 3 * Edge.hour, device: "dev-b"),
        ]]) { _, figures in
            #expect(figures.pushes["p1"]?.influencedOpens == 2)
            #expect(figures.totals.unattributedSessions == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSessionRetryCountsOnce(kind: StoreKind) async throws {
        var retry = Edge.session("s1", at: Edge.t + Edge.hour)
        retry.isRetry = true
        try await Edge.run(kind, [[Edge.display("p1", at: Edge.t), Edge.session("s1", at: Edge.t + Edge.hour), retry], [retry]]) { _, figures in
            #expect(figures.totals.influencedOpens == 1 && figures.totals.unattributedSessions == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aConversionRetryCountsOnceButConversionsWithoutAnIDCountEveryTime(kind: StoreKind) async throws {
        var retry = Edge.conversion("c1", at: Edge.t + Edge.hour, micros: 5_000_000, currency: "USD")
        retry.isRetry = true
        let anonymous = Edge.conversion(nil, at: Edge.t + Edge.hour, micros: 2_000_000, currency: "USD")
        try await Edge.run(kind, [
            [Edge.display("p1", at: Edge.t), Edge.conversion("c1", at: Edge.t + Edge.hour, micros: 5_000_000, currency: "USD"), retry],
            [retry, anonymous, anonymous],
        ]) { _, figures in
            #expect(figures.pushes["p1"]?.conversionsInfluenced == 3)
            #expect(figures.pushes["p1"]?.valueInfluenced == ["USD": 9_000_000])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func valuesInTwoCurrenciesStayApartAndSumExactly(kind: StoreKind) async throws {
        let at = Edge.t + Edge.hour
        try await Edge.run(kind, [[
            Edge.display("p1", at: Edge.t), Edge.conversion("c1", at: at, micros: 100_000, currency: "USD"),
            Edge.conversion("c2", at: at, micros: 200_000, currency: "USD"), Edge.conversion("c3", at: at, micros: 5_000_000, currency: "EUR"),
            Edge.conversion("c4", at: at),  // no value: counted, worth nothing in any currency
        ]], registrations: [PushRegistration(pushID: "p1", campaign: "spring")]) { store, figures in
            #expect(figures.pushes["p1"]?.conversionsInfluenced == 4)
            #expect(figures.pushes["p1"]?.valueInfluenced == ["USD": 300_000, "EUR": 5_000_000])
            let json = String(decoding: JSONRenderer.render(figures.campaigns), as: UTF8.self)
            #expect(json.contains(#""conversion_value":{"EUR":5,"USD":0.3}"#))
            let csv = CSVParser.parse(CSVRenderer.render(figures.campaigns))
            let usd = try #require(csv[0].firstIndex(of: "conversion_value:USD"))
            let eur = try #require(csv[0].firstIndex(of: "conversion_value:EUR"))
            #expect(csv[1][usd] == "0.3" && csv[1][eur] == "5")
            let totals = String(decoding: JSONRenderer.render(try await store.report(ReportRequest(.attribution))), as: UTF8.self)
            #expect(totals.contains(#""conversion_value":{"EUR":5,"USD":0.3}"#) && totals.contains(#""conversions":4"#))
        }
    }
}
