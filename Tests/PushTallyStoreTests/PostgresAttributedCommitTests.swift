import Foundation
import PostgresNIO
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// Sessions and conversions in the one-statement group commit: their credits planned from a read made before
/// it, and the statement's guard refusing them (the transaction path then commits them) when that read no
/// longer stands. Every credit and figure equals what a rebuild derives from the raw events.
extension PostgresStoreTests {
    @Test func sessionsCommitInOneStatementWithTheCreditsARebuildGives() async throws {
        try await TestPostgres.withDatabase { url in
            let secret = secretPath()
            defer { try? FileManager.default.removeItem(atPath: secret) }
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, writers: 1)
            defer { store.closeInBackground() }
            let now = StoreConfiguration.systemClock()
            _ = try await store.ingest([IncomingEvent(pushID: "p", kind: .display, deviceID: "a", deviceTimeMillis: now - 9_000)])
            let before = store.oneStatement.commits
            #expect(try await store.ingest([.session(deviceID: "a", sessionID: "s1", deviceTimeMillis: now - 8_000)]) == [false])
            #expect(try await store.ingest([.session(deviceID: "z", sessionID: "s1", deviceTimeMillis: now - 8_000)]) == [false])
            #expect(
                try await store.ingest([
                    .session(deviceID: "a", sessionID: "s2", deviceTimeMillis: now - 7_000),
                    .conversion(deviceID: "a", name: "buy", valueMicros: 5_000_000, currency: "EUR", conversionID: "c1", deviceTimeMillis: now - 6_000),
                    .session(deviceID: "a", sessionID: "s2", deviceTimeMillis: now - 7_000),
                ]) == [false, false, true], "a retry within the commit")
            let after = store.oneStatement.commits
            #expect(after.oneStatement == before.oneStatement + 3, "each commit in one statement: \(before) then \(after)")
            #expect(after.transactions == before.transactions)
            #expect(
                try await store.ingest([.session(deviceID: "a", sessionID: "s2", deviceTimeMillis: now - 7_000)]) == [true],
                "a retry of a stored session goes through the transaction")
            #expect(store.oneStatement.commits.transactions == after.transactions + 1)
            let totals = try await store.outcomeTotals(fromMillis: nil, toMillis: nil)
            #expect((totals.influencedOpens, totals.unattributedSessions, totals.sessions) == (1, 2, 3))
            let figures = try await store.pushFigures()
            try await store.rebuildRollups()
            #expect(try await store.outcomeTotals(fromMillis: nil, toMillis: nil) == totals)
            #expect(try await store.pushFigures() == figures)
        }
    }

    @Test func theAttributionGuardRefusesAHistoryThatMoved() async throws {
        try await TestPostgres.withDatabase { url in
            let secret = secretPath()
            defer { try? FileManager.default.removeItem(atPath: secret) }
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, writers: 1)
            defer { store.closeInBackground() }
            _ = try await store.ingest([.session(deviceID: "a", sessionID: "s1")])
            let stored = try #require(
                try await store.query("SELECT device_id, id, attribution FROM events WHERE kind = 2").first)
            let (device, id, storedCode) = try stored.decode((String, Int64, Int64?).self)
            let code = storedCode ?? -1
            func check(seenIDs: [Int64], codes: [Int64]) async throws -> Bool {
                let devices = Array(repeating: device, count: seenIDs.count)
                let pushes = Array(repeating: "", count: seenIDs.count)
                let rows = try await store.query(
                    """
                    SELECT pushtally_attribution_guard('{}'::text[], ARRAY[\(device)]::text[], true, '{}'::text[],
                        '{}'::text[], '{}'::text[], '{}'::boolean[], '{}'::bigint[], '{}'::text[], '{}'::bigint[], 2,
                        ARRAY[\(device)]::text[], ARRAY[0]::bigint[], 0, \(devices)::text[], \(seenIDs)::bigint[],
                        \(codes)::bigint[], \(pushes)::text[], \(AttributionSchema.prunedBeforeKey), NULL::text)
                    """)
                return try #require(rows.first).decode(Bool.self)
            }
            #expect(try await check(seenIDs: [id], codes: [code]))
            await #expect(throws: (any Error).self, "a stored event the read did not see") {
                try await check(seenIDs: [], codes: [])
            }
            await #expect(throws: (any Error).self, "a credit that moved since the read") {
                try await check(seenIDs: [id], codes: [code + 1])
            }
        }
    }
}
