import Foundation
import GRDB
import PushTallySQLite
import PushTallyStores
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

@Suite struct LatencyHistogramTests {
    @Test func bucketsByUpperBound() {
        #expect(LatencyHistogram.bucket(ofMillis: -5_000) == 0)  // before sent_at counts as zero
        #expect(LatencyHistogram.bucket(ofMillis: 999) == 0)
        #expect(LatencyHistogram.bucket(ofMillis: 1_000) == 1)
        #expect(LatencyHistogram.upperBoundsSeconds[LatencyHistogram.bucket(ofMillis: 3_599_999)] == 3600)
        #expect(LatencyHistogram.upperBoundsSeconds[LatencyHistogram.bucket(ofMillis: 3_600_000)] == 5400)
        #expect(LatencyHistogram.bucket(ofMillis: 30 * 86_400_000) == LatencyHistogram.upperBoundsSeconds.count)
    }

    @Test func quantilesAreExactToWithinOneBucket() {
        let latencies: [Int64] = [30, 90, 7200, 172_800]  // seconds
        var histogram = LatencyHistogram()
        for seconds in latencies { histogram.add(bucket: LatencyHistogram.bucket(ofMillis: seconds * 1000), count: 1) }
        // Nearest-rank by hand: p50 is the 2nd value (90 s), p90 and p99 the 4th (172,800 s).
        #expect(histogram.quantileSeconds(0.5) == 120)  // bucket [90, 120)
        #expect(histogram.quantileSeconds(0.9) == 259_200)  // bucket [172800, 259200)
        #expect(histogram.quantileSeconds(0.99) == 259_200)
        #expect(LatencyHistogram().quantileSeconds(0.5) == nil)
        #expect(histogram.count(below: 3600) == 2)
        #expect(histogram.count(below: 86400) == 3)
        #expect(histogram.count(below: 604_800) == 4)
    }
}

@Suite struct TimingStoreTests {
    static let now: Int64 = 1_795_305_600_000  // 2026-11-22T00:00:00Z
    static let sentAt = now - 3 * 86_400_000
    static let offsets: [Int64] = [30, 90, 7200, 172_800]

    func receipts() -> [IncomingEvent] {
        Self.offsets.enumerated().map { index, seconds in
            receipt("p1", device: "d\(index)", ts: Self.sentAt + seconds * 1000)
        } + [receipt("p1", device: "d0")]  // a retry: not timed twice
    }

    @Test(arguments: StoreKind.allCases) func timeToDisplayFromTheHistogram(kind: StoreKind) async throws {
        let clock = TestClock(Self.now)
        try await withStore(kind, clock: clock.function) { store in
            try await store.register(PushRegistration(pushID: "p1", campaign: "c", sentAtMillis: Self.sentAt, counts: SendCounts(sent: 10)))
            _ = try await store.ingest(receipts())
            let funnel = try #require(try await store.pushFigures().first).funnel
            #expect(funnel.latency.total == 4)
            #expect(funnel.latency.quantileSeconds(0.5) == 120)
            #expect(funnel.displayRate(within: 3600) == 0.2)
            #expect(funnel.displayRate(within: 86400) == 0.3)
            #expect(funnel.displayRate(within: 604_800) == 0.4)
            #expect(funnel.late == 0)
        }
    }

    /// Displays of a push without `sent_at` cannot be timed, so its sends stay out of the 1 h/24 h/7 d rates.
    @Test(arguments: StoreKind.allCases) func maturityRatesPoolOnlyPushesWithASentAt(kind: StoreKind) async throws {
        let clock = TestClock(Self.now)
        try await withStore(kind, clock: clock.function) { store in
            try await store.register(PushRegistration(pushID: "p1", campaign: "c", sentAtMillis: Self.sentAt, counts: SendCounts(sent: 10)))
            try await store.register(PushRegistration(pushID: "untimed", campaign: "c", counts: SendCounts(sent: 90)))
            _ = try await store.ingest(receipts() + [receipt("untimed", device: "x")])
            let untimed = try #require(try await store.pushFigures(ReportFilter(pushID: "untimed")).first).funnel
            #expect(untimed.displayRate(within: 3600) == nil)
            #expect(untimed.displayRate == 1.0 / 90)
            let campaign = try await store.report(ReportRequest(.campaigns))
            let row = Dictionary(uniqueKeysWithValues: campaign.rows[0].map { ($0.0, $0.1) })
            #expect(row["display_rate_1h"] == .rate(0.2))
            #expect(row["display_rate_7d"] == .rate(0.4))
            #expect(row["display_rate"] == .rate(5.0 / 100))
        }
    }

    @Test(arguments: StoreKind.allCases) func receiptsBeforeRegistrationAreTimedAtRegistration(kind: StoreKind) async throws {
        let clock = TestClock(Self.now)
        let (registeredFirst, registeredLate) = try await (
            withStore(kind, clock: clock.function) { store in
                try await store.register(PushRegistration(pushID: "p1", campaign: "c", sentAtMillis: Self.sentAt))
                _ = try await store.ingest(receipts())
                return try #require(try await store.pushFigures().first).funnel
            },
            withStore(kind, clock: clock.function) { store in
                _ = try await store.ingest(receipts())
                // Registered without sent_at first, then with it: timing settles when sent_at arrives.
                try await store.register(PushRegistration(pushID: "p1", campaign: "c"))
                #expect(try await store.pushFigures().first?.funnel.latency.total == 0)
                try await store.register(PushRegistration(pushID: "p1", campaign: "c", sentAtMillis: Self.sentAt))
                #expect(try await store.integers("SELECT count(*) FROM pending_timing") == [0])
                return try #require(try await store.pushFigures().first).funnel
            })
        #expect(registeredFirst.latency == registeredLate.latency)
        #expect(registeredFirst.late == registeredLate.late)
        #expect(registeredLate.latency.total == 4)
    }

    @Test(arguments: StoreKind.allCases) func receiptsAfterFinalAtAreCountedAndLate(kind: StoreKind) async throws {
        let clock = TestClock(Self.now)
        let oneDay: Int64 = 86_400_000
        // A custom window of one day, pushes sent three days ago: final, and every receipt now is late.
        try await withStore(kind, clock: clock.function, maturityWindow: oneDay) { configured in
            try await configured.register(PushRegistration(pushID: "p1", campaign: "c", sentAtMillis: Self.sentAt, counts: SendCounts(sent: 4)))
            _ = try await configured.ingest([receipt("p1", device: "a", ts: Self.sentAt + 60_000), receipt("p1", device: "a")])
            _ = try await configured.ingest([receipt("orphan", device: "b")])
            try await configured.register(PushRegistration(pushID: "orphan", campaign: "c", sentAtMillis: Self.sentAt))
            let table = try await configured.report(ReportRequest(.campaigns))
            let row = Dictionary(uniqueKeysWithValues: table.rows[0].map { ($0.0, $0.1) })
            #expect(row["displayed_unique"] == .integer(2))
            #expect(row["late"] == .integer(2))
            #expect(row["final"] == .flag(true))
            #expect(row["final_at"] == .text(Timestamp.iso8601(millis: Self.sentAt + oneDay)))
            // A push sent just now is not final yet.
            try await configured.register(PushRegistration(pushID: "fresh", campaign: "d", sentAtMillis: Self.now))
            let fresh = try await configured.report(ReportRequest(.push("fresh")))
            #expect(fresh.rows[0].first { $0.0 == "final" }?.1 == .flag(false))
        }
    }

    @Test(arguments: StoreKind.allCases) func funnelHasAColumnPerCommonAPNsReason(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.register(PushRegistration(
                pushID: "p1", campaign: "c",
                counts: SendCounts(targeted: 20, sent: 10, failed: [
                    "Unregistered": 4, "BadDeviceToken": 3, "DeviceTokenNotForTopic": 2, "TooManyRequests": 1, "PayloadTooLarge": 5,
                ])))
            _ = try await store.ingest([receipt("p1", device: "a"), receipt("p1", device: "b"), receipt("p1", device: "b")])
            let table = try await store.report(ReportRequest(.campaigns))
            let row = Dictionary(uniqueKeysWithValues: table.rows[0].map { ($0.0, $0.1) })
            #expect(row["failed"] == .integer(15))
            #expect(row["failed_unregistered"] == .integer(4))
            #expect(row["failed_bad_device_token"] == .integer(3))
            #expect(row["failed_device_token_not_for_topic"] == .integer(2))
            #expect(row["failed_too_many_requests"] == .integer(1))
            #expect(row["failed_other"] == .integer(5))
            #expect(row["unexplained_loss"] == .integer(8))
            #expect(row["failed_reasons"] == .counts(["Unregistered": 4, "BadDeviceToken": 3, "DeviceTokenNotForTopic": 2, "TooManyRequests": 1, "PayloadTooLarge": 5], csvPrefix: nil))
        }
    }
}

@Suite struct TimeseriesTests {
    @Test func theSystemHasTheZoneDatabase() {
        for name in ["Asia/Taipei", "Asia/Kolkata", "America/New_York", "Asia/Kathmandu"] {
            #expect(TimeZone(identifier: name) != nil, "time zone \(name) is missing: install Debian's tzdata (scripts/install-deps does)")
        }
    }

    func series(_ kind: StoreKind, _ events: [(Int64, EventKind, String)], now: Int64, width: TimeseriesOptions.Width, zone: String, filter: ReportFilter = ReportFilter()) async throws -> [(String, Int64)] {
        let clock = TestClock(now)
        return try await withStore(kind, clock: clock.function) { store in
            _ = try await store.ingest(events.map { millis, kind, action in
                IncomingEvent(pushID: "p1", kind: kind, action: action, deviceTimeMillis: millis)
            })
            let table = try await store.report(ReportRequest(
                .timeseries(TimeseriesOptions(width: width, timeZone: TimeZone(identifier: zone)!, name: zone)), filter: filter))
            #expect(table.header.first { $0.0 == "tz" }?.1 == .text(zone))
            return table.rows.map { row in
                guard case .text(let start?) = row[0].1, case .integer(let displayed) = row[1].1 else { return ("", -1) }
                return (start, displayed)
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func daysInTwoZones(kind: StoreKind) async throws {
        let events: [(Int64, EventKind, String)] = [
            (1_795_107_600_000, .display, ""),  // 2026-11-19T17:00Z: the 20th in Taipei, the 19th in UTC
            (1_795_167_300_000, .display, ""),  // 2026-11-20T09:35Z
        ]
        let taipei = try await series(kind, events, now: 1_795_305_600_000, width: .day, zone: "Asia/Taipei")
        #expect(taipei.map(\.0) == ["2026-11-20T00:00:00+08:00"])
        #expect(taipei.map(\.1) == [2])
        let utc = try await series(kind, events, now: 1_795_305_600_000, width: .day, zone: "UTC")
        #expect(utc.map(\.0) == ["2026-11-19T00:00:00Z", "2026-11-20T00:00:00Z"])
        #expect(utc.map(\.1) == [1, 1])
    }

    @Test(arguments: StoreKind.allCases) func halfHourZoneHoursAssembleFromQuarterHours(kind: StoreKind) async throws {
        let events: [(Int64, EventKind, String)] = [
            (1_795_167_300_000, .display, ""),  // 09:35Z = 15:05 IST
            (1_795_170_300_000, .display, ""),  // 10:25Z = 15:55 IST
        ]
        let kolkata = try await series(kind, events, now: 1_795_305_600_000, width: .hour, zone: "Asia/Kolkata")
        #expect(kolkata.map(\.0) == ["2026-11-20T15:00:00+05:30"])
        #expect(kolkata.map(\.1) == [2])
        let utc = try await series(kind, events, now: 1_795_305_600_000, width: .hour, zone: "UTC")
        #expect(utc.map(\.0) == ["2026-11-20T09:00:00Z", "2026-11-20T10:00:00Z"])  // two hours in UTC
    }

    @Test(arguments: StoreKind.allCases) func dstChangeDayHasTwentyFiveHours(kind: StoreKind) async throws {
        let events: [(Int64, EventKind, String)] = [
            (1_793_507_400_000, .display, ""),  // 2026-11-01T04:30Z = 00:30 EDT on the 1st
            (1_793_593_800_000, .display, ""),  // 2026-11-02T04:30Z = 23:30 EST, still the 1st
        ]
        let newYork = try await series(kind, events, now: 1_793_664_000_000, width: .day, zone: "America/New_York")
        #expect(newYork.map(\.0) == ["2026-11-01T00:00:00-04:00"])
        #expect(newYork.map(\.1) == [2])
    }

    /// Santiago's clocks skip from 00:00 to 01:00 on 2026-09-06: that day starts at 01:00, the next at 00:00.
    @Test(arguments: StoreKind.allCases) func daysAfterAMidnightSkippedByDSTStillStartAtTheirMidnight(kind: StoreKind) async throws {
        let events: [(Int64, EventKind, String)] = [
            (1_788_609_600_000, .display, ""),  // 2026-09-05T12:00Z
            (1_788_696_000_000, .display, ""),  // 2026-09-06T12:00Z
            (1_788_782_400_000, .display, ""),  // 2026-09-07T12:00Z
        ]
        let santiago = try await series(kind, events, now: 1_788_825_600_000, width: .day, zone: "America/Santiago")
        #expect(santiago.map(\.0) == ["2026-09-05T00:00:00-04:00", "2026-09-06T01:00:00-03:00", "2026-09-07T00:00:00-03:00"])
        #expect(santiago.map(\.1) == [1, 1, 1])
    }

    @Test(arguments: StoreKind.allCases) func rangeFillsEmptyBucketsAndCountsActions(kind: StoreKind) async throws {
        let events: [(Int64, EventKind, String)] = [
            (1_795_167_300_000, .display, ""),
            (1_795_167_300_000, .action, "open"),
            (1_795_167_300_000, .action, "view"),
        ]
        let clock = TestClock(1_795_305_600_000)
        try await withStore(kind, clock: clock.function) { store in
            _ = try await store.ingest(events.map { IncomingEvent(pushID: "p1", kind: $0.1, action: $0.2, deviceTimeMillis: $0.0) })
            let table = try await store.report(ReportRequest(
                .timeseries(TimeseriesOptions(width: .day, timeZone: TimeZone(identifier: "UTC")!)),
                filter: ReportFilter(fromMillis: 1_795_046_400_000, toMillis: 1_795_305_600_000)))  // 19th to 22nd
            #expect(table.rows.count == 3)
            let csv = CSVRenderer.render(table)
            #expect(csv.hasPrefix("start,displayed,duplicates,displayed_unique,opened,opened_unique,dismissed,action:view\r\n"))
            #expect(csv.contains("2026-11-20T00:00:00Z,1,0,1,1,1,0,1\r\n"))
            #expect(csv.contains("2026-11-21T00:00:00Z,0,0,0,0,0,0,0\r\n"))
        }
    }

    @Test(arguments: StoreKind.allCases) func tooManyBucketsIsAClientError(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            await #expect(throws: FieldError.self) {
                try await store.report(ReportRequest(
                    .timeseries(TimeseriesOptions(width: .hour, timeZone: TimeZone(identifier: "UTC")!)),
                    filter: ReportFilter(fromMillis: 0, toMillis: 1_795_305_600_000)))
            }
        }
    }
}

@Suite struct ReceiptHealthTests {
    @Test(arguments: StoreKind.allCases) func flagsAVersionWithOpensButFewReceipts(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var events: [IncomingEvent] = []
            for i in 0..<10 {
                events.append(IncomingEvent(pushID: "p", kind: .display, deviceID: "a\(i)", appVersion: "2.1", osVersion: "18.1"))
                events.append(IncomingEvent(pushID: "p", kind: .action, action: "open", deviceID: "a\(i)", appVersion: "2.1", osVersion: "18.1"))
            }
            // Version 2.0's extension is broken: its users open pushes, but it posts almost no receipts.
            for i in 0..<10 {
                events.append(IncomingEvent(pushID: "p", kind: .action, action: "open", deviceID: "b\(i)", appVersion: "2.0", osVersion: "17.5"))
            }
            events.append(IncomingEvent(pushID: "p", kind: .display, deviceID: "b0", appVersion: "2.0", osVersion: "17.5"))
            events.append(IncomingEvent(pushID: "p", kind: .display, deviceID: "b0", appVersion: "2.0", osVersion: "17.5"))  // a retry
            events.append(IncomingEvent(pushID: "p", kind: .display, deviceID: "c"))  // no version sent: no share of its own
            _ = try await store.ingest(events)
            let table = try await store.report(ReportRequest(.versions(.appVersion)))
            let csv = CSVRenderer.render(table)
            #expect(csv == """
                version,receipts,opens,receipt_share,open_share,flagged,media_attached,media_failed,media_timed_out,rich_rate,extension_ms_p50,extension_ms_p90\r
                2.0,1,10,0.09090909090909091,0.5,true,0,0,0,,,\r
                2.1,10,10,0.9090909090909091,0.5,false,0,0,0,,,\r
                unknown,1,0,,,false,0,0,0,,,\r

                """)
            #expect(table.header.first?.1 == .text("app_version"))
            let os = CSVRenderer.render(try await store.report(ReportRequest(.versions(.osVersion))))
            #expect(os.contains("17.5,1,10,"))
        }
    }
}
