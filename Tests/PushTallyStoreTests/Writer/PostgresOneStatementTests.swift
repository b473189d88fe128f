import Foundation
import PushTallyCore
import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// The one-statement group commit: taken when its predictions hold, and when one fails (a retry, a push
/// registered by another collector, a device with a later session) the events go through the transaction
/// path and every figure and credit is what a rebuild derives from the raw events.
extension PostgresStoreTests {
    @Test func aGroupCommitIsOneStatementWhenItsPredictionsHold() async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout, writers: 1)
            defer { store.closeInBackground() }
            #expect(try await store.ingest([IncomingEvent(pushID: "p", kind: .display, deviceID: "a")]) == [false])
            #expect(store.oneStatement.commits == (0, 1), "the push's sent_at is not known yet: read in a transaction")
            #expect(try await store.ingest([IncomingEvent(pushID: "p", kind: .display)]) == [false])
            #expect(
                try await store.ingest([
                    IncomingEvent(pushID: "p", kind: .display, deviceID: "b", receiptID: "r"),
                    IncomingEvent(pushID: "p", kind: .display, deviceID: "b", receiptID: "r"),
                ]) == [false, true], "a retry within the commit")
            #expect(store.oneStatement.commits == (2, 1))
            #expect(
                try await store.ingest([IncomingEvent(pushID: "p", kind: .display, deviceID: "b", receiptID: "r")]) == [true],
                "a retry of a stored receipt fails the prediction and is counted by the transaction")
            #expect(store.oneStatement.commits == (2, 2))
            let figures = try #require(try await store.pushFigures().first)
            #expect((figures.funnel.displayed, figures.funnel.duplicates) == (5, 2))
            try await store.rebuildRollups()
            #expect(try await store.pushFigures() == [figures])
        }
    }

    @Test func aFailedPredictionCommitsThroughTheTransaction() async throws {
        try await FreshStore.with(.postgres) { fresh in
            try await fresh.withTwoCollectors { first, second in
                let now = StoreConfiguration.systemClock()
                func display(_ device: String, at time: Int64 = now - 1_000) -> [IncomingEvent] {
                    [IncomingEvent(pushID: "p", kind: .display, deviceID: device, deviceTimeMillis: time)]
                }
                _ = try await first.ingest(display("a"))
                _ = try await first.ingest(display("b"))
                #expect(first.oneStatement.commits == (1, 1))
                // Registered on the other collector: the first's remembered "not sent yet" is stale.
                try await second.register(PushRegistration(pushID: "p", campaign: "c", sentAtMillis: now - 60_000, counts: SendCounts(sent: 10)))
                _ = try await first.ingest(display("c"))
                #expect(first.oneStatement.commits == (1, 2))
                _ = try await first.ingest(display("e"))  // the pause after a failed prediction
                _ = try await first.ingest(display("f"))
                #expect(first.oneStatement.commits == (2, 3))
                // A display before a session stored by the other collector: the device needs attributing.
                _ = try await second.ingest([.session(deviceID: "d", sessionID: "s", deviceTimeMillis: now - 30_000)])
                _ = try await first.ingest(display("d", at: now - 40_000))
                #expect(first.oneStatement.commits == (2, 4))
                let totals = try await first.outcomeTotals(fromMillis: nil, toMillis: nil)
                #expect((totals.influencedOpens, totals.sessions) == (1, 1), "the late display credits the session")
                let figures = try #require(try await first.pushFigures().first)
                #expect(figures.funnel.displayed == 6)
                #expect(figures.funnel.latency.total == 6, "pending timing settled, the rest timed at once")
                try await second.rebuildRollups()
                #expect(try await first.pushFigures() == [figures])
                #expect(try await first.outcomeTotals(fromMillis: nil, toMillis: nil) == totals)
            }
        }
    }
}
