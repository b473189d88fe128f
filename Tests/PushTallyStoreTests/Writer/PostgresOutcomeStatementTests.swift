import Foundation
import PushTallyCore
import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// The prepared statement of a commit of sessions and conversions (column arrays through `unnest`): every
/// raw column stored as sent, NULL kept apart from text, the credits and rollups it writes what a rebuild
/// derives from the raw rows.
extension PostgresStoreTests {
    @Test func theOutcomeStatementStoresEveryColumnCreditAndRollup() async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout, writers: 1)
            defer { store.closeInBackground() }
            let now = StoreConfiguration.systemClock()
            _ = try await store.ingest([IncomingEvent(pushID: "p", kind: .display, deviceID: "a", deviceTimeMillis: now - 600_000)])
            var session = IncomingEvent.session(deviceID: "a", sessionID: "s1", deviceTimeMillis: now - 300_000, app: "shop", appVersion: "2.0")
            session.notificationPermission = .authorized
            session.platform = "ios"
            let commit = [
                session,
                .conversion(deviceID: "a", name: "buy", valueMicros: 2_500_000, currency: "EUR", conversionID: "c1", deviceTimeMillis: now - 240_000),
                session,
                .session(deviceID: "b", sessionID: "s2"),
            ]
            #expect(try await store.ingest(commit) == [false, false, true, false])
            let stored = try await store.textRows(
                """
                SELECT kind, push_id, action, duplicate, receipt_id, platform, app, app_version, name, value_micros, currency,
                    notification_permission, attribution IS NULL, attributed_push, device_id IS NULL
                FROM events WHERE kind >= 2 ORDER BY id
                """)
            // A retry is stored, marked, and takes no credit.
            let session2 = "\(EventKind.session.rawValue)"
            let conversion = "\(EventKind.conversion.rawValue)"
            #expect(
                stored == [
                    [session2, "", "", "0", "s1", "ios", "shop", "2.0", nil, nil, nil, "authorized", "0", "p", "0"],
                    [conversion, "", "", "0", "c1", nil, nil, nil, "buy", "2500000", "EUR", nil, "0", "p", "0"],
                    [session2, "", "", "1", "s1", "ios", "shop", "2.0", nil, nil, nil, "authorized", "1", nil, "0"],
                    [session2, "", "", "0", "s2", nil, nil, nil, nil, nil, nil, nil, "0", nil, "0"],
                ])
            let totals = try await store.outcomeTotals(fromMillis: nil, toMillis: nil)
            #expect((totals.sessions, totals.influencedOpens, totals.conversionsInfluenced) == (2, 1, 1))
            #expect(totals.valueInfluenced == ["EUR": 2_500_000])
            let audience = try await store.audienceCounts(AudienceQuery(grouping: .app, fromMillis: nil, toMillis: nil))
            let credits = try await store.textRows("SELECT id, attribution, attributed_push FROM events ORDER BY id")
            try await store.rebuildRollups()
            #expect(try await store.textRows("SELECT id, attribution, attributed_push FROM events ORDER BY id") == credits)
            #expect(try await store.outcomeTotals(fromMillis: nil, toMillis: nil) == totals)
            #expect(Set(try await store.audienceCounts(AudienceQuery(grouping: .app, fromMillis: nil, toMillis: nil))) == Set(audience))
        }
    }
}
