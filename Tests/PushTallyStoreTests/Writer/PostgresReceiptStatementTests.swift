import Foundation
import PushTallyCore
import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// The prepared receipt statement (column arrays through `unnest`): raw columns stored as sent, NULL kept
/// apart from text, and every rollup it writes (push, buckets, time series, timing, versions, platform buckets) what a rebuild
/// derives from the raw rows.
extension PostgresStoreTests {
    @Test func theReceiptStatementStoresEveryColumnAndRollup() async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout, writers: 1)
            defer { store.closeInBackground() }
            let now = StoreConfiguration.systemClock()
            try await store.register(PushRegistration(pushID: "sent", campaign: "c", sentAtMillis: now - 60_000, counts: SendCounts(sent: 5)))
            // Read once by the transaction path, so the commits below may predict their `sent_at`.
            _ = try await store.ingest([IncomingEvent(pushID: "sent", kind: .display), IncomingEvent(pushID: "unsent", kind: .display)])
            #expect(store.oneStatement.commits == (0, 1))
            let receipts = [
                IncomingEvent(
                    pushID: "sent", kind: .display, deviceID: "a", receiptID: "r1", deviceTimeMillis: now - 1_000, platform: "ios",
                    appVersion: "2.1", osVersion: "18.1"),
                IncomingEvent(pushID: "sent", kind: .action, action: "open", deviceID: "a", platform: "ios", appVersion: "2.1"),
                IncomingEvent(pushID: "sent", kind: .display, osVersion: "17.5"),
                IncomingEvent(pushID: "unsent", kind: .display, deviceID: "b", deviceTimeMillis: now - 2_000),
                IncomingEvent(pushID: "sent", kind: .display, deviceID: "a", receiptID: "r1"),
            ]
            #expect(try await store.ingest(receipts) == [false, false, false, false, true])
            #expect(store.oneStatement.commits == (1, 1), "receipts only: the prepared statement")
            let stored = try await store.textRows(
                """
                SELECT kind, action, duplicate, device_id IS NULL, receipt_id, platform, app_version, os_version
                FROM events WHERE receipt_id IS DISTINCT FROM NULL OR platform IS NOT NULL OR os_version IS NOT NULL
                   OR device_id IS NOT NULL ORDER BY id
                """)
            // kind, action, duplicate (1 = retry), no device (1), receipt id, platform, app and OS version.
            #expect(
                stored == [
                    ["0", "", "0", "0", "r1", "ios", "2.1", "18.1"],
                    ["1", "open", "0", "0", nil, "ios", "2.1", nil],
                    ["0", "", "0", "1", nil, nil, nil, "17.5"],
                    ["0", "", "0", "0", nil, nil, nil, nil],
                    ["0", "", "1", "0", "r1", nil, nil, nil],
                ])
            let figures = try await store.pushFigures()
            let buckets = try await store.bucketCounts(ReportFilter())
            let iosBuckets = try await store.bucketCounts(ReportFilter(platform: "ios"))
            #expect(iosBuckets.map(\.count.total).reduce(0, +) == 2, "the ios display and open, by platform per bucket")
            let versions = try await VersionDimension.allCases.asyncMap { try await store.versionCounts(ReportFilter(), dimension: $0) }
            let sent = try #require(figures.first { $0.pushID == "sent" })
            #expect((sent.funnel.displayed, sent.funnel.duplicates) == (4, 1))
            try await store.rebuildRollups()
            #expect(try await store.pushFigures() == figures)
            #expect(Set(try await store.bucketCounts(ReportFilter())) == Set(buckets))
            #expect(Set(try await store.bucketCounts(ReportFilter(platform: "ios"))) == Set(iosBuckets))
            let rebuilt = try await VersionDimension.allCases.asyncMap { try await store.versionCounts(ReportFilter(), dimension: $0) }
            #expect(rebuilt.map(Set.init) == versions.map(Set.init))
        }
    }
}

extension PostgresStoreTests {
    /// The receipt statement comes without the time-to-display and media clauses when a commit has no rows for
    /// them: each of its four shapes commits in one statement, binds what its text numbers, and counts what a
    /// rebuild counts.
    @Test func everyShapeOfTheReceiptStatementCommitsAndCounts() async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout, writers: 1)
            defer { store.closeInBackground() }
            let now = StoreConfiguration.systemClock()
            try await store.register(PushRegistration(pushID: "sent", campaign: "c", sentAtMillis: now - 60_000, counts: SendCounts(sent: 9)))
            _ = try await store.ingest([IncomingEvent(pushID: "sent", kind: .display), IncomingEvent(pushID: "unsent", kind: .display)])
            #expect(store.oneStatement.commits == (0, 1))
            func display(_ pushID: String, _ receipt: String, timed: Bool, media: ReceiptMedia?) -> IncomingEvent {
                var event = IncomingEvent(
                    pushID: pushID, kind: .display, deviceID: "d-\(receipt)", receiptID: receipt,
                    deviceTimeMillis: timed ? now - 30_000 : nil, appVersion: "4.0", osVersion: "18.2")
                event.media = media
                event.extensionMillis = media == nil ? nil : 420
                return event
            }
            let shapes: [(name: String, events: [IncomingEvent])] = [
                ("lean", [display("unsent", "l1", timed: false, media: nil)]),
                ("timed", [display("sent", "t1", timed: true, media: nil), display("sent", "t1", timed: true, media: nil)]),
                ("media", [display("unsent", "m1", timed: false, media: .attached), display("unsent", "m2", timed: false, media: .failed)]),
                ("timed and media", [display("sent", "f1", timed: true, media: .timedOut), display("sent", "f2", timed: true, media: .attached)]),
            ]
            for (index, shape) in shapes.enumerated() {
                _ = try await store.ingest(shape.events)
                #expect(store.oneStatement.commits == (index + 1, 1), "the \(shape.name) commit is one statement")
            }
            let figures = try await store.pushFigures()
            let sent = try #require(figures.first { $0.pushID == "sent" })
            // The priming display and five of these four commits', one of them a retry.
            #expect((sent.funnel.displayed, sent.funnel.duplicates) == (5, 1))
            #expect(try await MediaRollupTests.read(store) == Self.mediaRecount(store))
            let media = try #require(figures.first { $0.pushID == "unsent" }?.funnel.media)
            #expect(!media.isEmpty, "the media commit counted its outcomes")
            try await store.rebuildRollups()
            #expect(try await store.pushFigures() == figures)
            #expect(try await MediaRollupTests.read(store) == Self.mediaRecount(store))
        }
    }

    /// ``MediaRollupTests/recount(_:)`` without the versions whose displays said nothing of media, which the
    /// reports leave out (the priming displays name no version and no media).
    private static func mediaRecount(_ store: PostgresStore) async throws -> MediaRollupTests.Recount {
        var recount = try await MediaRollupTests.recount(store)
        for (dimension, outcomes) in recount.versions { recount.versions[dimension] = outcomes.filter { !$0.value.isEmpty } }
        return recount
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
