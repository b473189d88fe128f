import Foundation
import PushTallyCore
import Testing

@testable import PushTallyServer

/// The figures behind `pushtally_recent_pushes_sent` / `_displayed`, and how often they are recounted.
@Suite struct RecentDisplaysTests {
    static let now: Int64 = 1_795_000_000_000
    static let minute: Int64 = 60_000

    static func push(_ id: String, sentAt: Int64?, sent: Int64, displays: Int64, duplicates: Int64 = 0) -> PushFigures {
        var funnel = Funnel()
        funnel.pushes = 1
        funnel.sent = sent
        funnel.displays = EventCount(total: displays, duplicates: duplicates)
        return PushFigures(
            pushID: id, campaign: "c", title: nil, sentAtMillis: sentAt, app: nil, environment: nil,
            firstEventMillis: sentAt ?? now - 30 * minute, funnel: funnel)
    }

    @Test func countsPushesSentFromAnHourToFiveMinutesAgoWithUniqueDisplays() throws {
        let figures = [
            Self.push("first-included", sentAt: Self.now - 60 * Self.minute, sent: 100, displays: 40, duplicates: 10),
            Self.push("last-included", sentAt: Self.now - 5 * Self.minute - 1, sent: 50, displays: 5),
            Self.push("too-old", sentAt: Self.now - 60 * Self.minute - 1, sent: 1000, displays: 1),
            Self.push("too-new", sentAt: Self.now - 5 * Self.minute, sent: 1000, displays: 1),
            Self.push("no-sent-at", sentAt: nil, sent: 1000, displays: 1),
            PushFigures(orphan: "orphan"),
        ]
        #expect(try RecentDisplays.count(figures, now: Self.now) == RecentDisplays(sent: 150, displayed: 35))
        #expect(try RecentDisplays.count([], now: Self.now) == RecentDisplays(sent: 0, displayed: 0))
    }

    @Test func readsTheWindowFromTheStoreAtItsClock() async throws {
        let reader = FakeReader(now: Self.now, figures: [
            Self.push("in", sentAt: Self.now - 30 * Self.minute, sent: 10, displays: 3),
            Self.push("no-sent-at", sentAt: nil, sent: 1000, displays: 1),
        ])
        #expect(try await RecentDisplays.read(from: reader) == RecentDisplays(sent: 10, displayed: 3))
        #expect(reader.filters == [ReportFilter(fromMillis: Self.now - 60 * Self.minute, toMillis: Self.now - 5 * Self.minute)])
    }

    @Test func theCacheRecountsOnlyOnceAMinuteOrWhenTheClockGoesBack() async throws {
        let reader = FakeReader(now: Self.now, figures: [Self.push("in", sentAt: Self.now - 30 * Self.minute, sent: 10, displays: 3)])
        let cache = RecentDisplaysCache(store: reader)
        #expect(try await cache.current() == RecentDisplays(sent: 10, displayed: 3))
        reader.figures = [Self.push("in", sentAt: Self.now - 30 * Self.minute, sent: 20, displays: 7)]
        reader.now = Self.now + Self.minute - 1
        #expect(try await cache.current() == RecentDisplays(sent: 10, displayed: 3))
        #expect(reader.filters.count == 1)
        reader.now = Self.now + Self.minute
        #expect(try await cache.current() == RecentDisplays(sent: 20, displayed: 7))
        reader.figures = [Self.push("in", sentAt: Self.now - 30 * Self.minute, sent: 30, displays: 9)]
        reader.now = Self.now
        #expect(try await cache.current() == RecentDisplays(sent: 30, displayed: 9))
        #expect(reader.filters.count == 3)
    }

    @Test func aFailedCountIsNotKept() async throws {
        let reader = FakeReader(now: Self.now, figures: [Self.push("in", sentAt: Self.now - 30 * Self.minute, sent: 10, displays: 3)])
        reader.failure = StoreError.unavailable(reason: "test")
        let cache = RecentDisplaysCache(store: reader)
        await #expect(throws: StoreError.self) { try await cache.current() }
        reader.failure = nil
        #expect(try await cache.current() == RecentDisplays(sent: 10, displayed: 3))
    }
}

/// A ``ReportReader`` with a settable clock and figures, recording the filters it was asked for.
final class FakeReader: ReportReader, @unchecked Sendable {
    private let lock = NSLock()
    private var state: (now: Int64, figures: [PushFigures], filters: [ReportFilter], failure: StoreError?)

    init(now: Int64, figures: [PushFigures]) {
        state = (now, figures, [], nil)
    }

    private func locked<T>(_ body: (inout (now: Int64, figures: [PushFigures], filters: [ReportFilter], failure: StoreError?)) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    var now: Int64 {
        get { locked { $0.now } }
        set { locked { $0.now = newValue } }
    }
    var figures: [PushFigures] {
        get { locked { $0.figures } }
        set { locked { $0.figures = newValue } }
    }
    var failure: StoreError? {
        get { locked { $0.failure } }
        set { locked { $0.failure = newValue } }
    }
    var filters: [ReportFilter] { locked { $0.filters } }

    var configuration: StoreConfiguration {
        StoreConfiguration(clock: { [self] in now })
    }

    /// Feeds each push's registration, sends and displays, all these figures carry.
    func readPushRows<Sink: PushRowSink & Sendable>(_ filter: ReportFilter, into sink: Sink) async throws -> Sink {
        let (figures, failure) = locked { state -> ([PushFigures], StoreError?) in
            state.filters.append(filter)
            return (state.figures, state.failure)
        }
        if let failure { throw failure }
        var sink = sink
        for push in figures {
            if let campaign = push.campaign {
                sink.registered(
                    pushID: push.pushID, campaign: campaign, title: nil, sentAtMillis: push.sentAtMillis, app: nil, environment: nil,
                    attributes: SendAttributes())
            }
            guard let first = push.firstEventMillis else { continue }
            if sink.readsFirstEvents { sink.firstEvent(pushID: push.pushID, millis: first) }
            sink.sends(pushID: push.pushID, targeted: 0, sent: push.funnel.sent)
            var values = RollupAccumulator.Delta()
            (values.total, values.duplicates, values.firstTime) = (push.funnel.displays.total, push.funnel.displays.duplicates, first)
            sink.rollup(pushID: push.pushID, kind: .display, action: "", values: values)
        }
        return sink
    }

    func campaignNames(after: String?, limit: Int) async throws -> [String] { [] }
    func orphanPageEnd(after: String?, rows: Int) async throws -> String? { nil }
    func collapsePeers(_ filter: ReportFilter) async throws -> [CollapsePush] { [] }
    func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount] { [] }

    func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount] { [] }
    func versionMedia(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [String: MediaOutcomes] { [:] }
    func outcomeTotals(fromMillis: Int64?, toMillis: Int64?) async throws -> Outcomes { Outcomes() }
    func audienceCounts(_ query: AudienceQuery) async throws -> [AudienceCount] { [] }
    func deviceStateCounts(_ query: DeviceStateQuery) async throws -> [DeviceStateCount] { [] }
}
