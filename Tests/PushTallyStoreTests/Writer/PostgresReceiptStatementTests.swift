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

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
