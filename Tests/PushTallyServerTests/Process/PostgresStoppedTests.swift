import Foundation
import PushTallyTestSupport
import Testing

/// PostgreSQL stopped with `-m immediate` for 10 s under load, on a cluster of the test's own (a crash, or the
/// old primary of a failover): every request meanwhile is answered `503` with `Retry-After` within one deadline
/// (the wait for a connection and the commit share it), `/healthz` says so, and once the server is back the
/// collector writes again by itself, every acknowledged receipt stored once.
@Suite(.serialized) struct PostgresStoppedTests {
    @Test(.enabled(if: geteuid() == 0, "needs root to create and stop a PostgreSQL cluster of its own"), .timeLimit(.minutes(6)))
    func aDatabaseStoppedAtOnceIsAnswered503AndRecovers() async throws {
        try await ThrowawayCluster.with(stopUnderLoad)
    }

    private func stopUnderLoad(_ cluster: ThrowawayCluster) async throws {
        let collector = try cluster.collector("stopped")
        defer { collector.removeFiles() }
        try await collector.start()
        let load = FaultLoad(collector: collector.baseURL, pushID: "stopped")
        async let loading: Void = load.run(clients: 16)
        while load.snapshot.acknowledged.count < 5 { try await Task.sleep(for: .milliseconds(50)) }

        try await cluster.stopImmediately()
        let stoppedAt = ContinuousClock.now
        var health: (status: Int, retryAfter: String?, body: String, took: Duration)?
        while ContinuousClock.now - stoppedAt < .seconds(10) {
            try await Task.sleep(for: .seconds(1))
            if health == nil, ContinuousClock.now - stoppedAt > .seconds(3) { health = try await load.get("healthz") }
        }
        let during = load.snapshot
        try await cluster.start()

        // Back by itself: no restart, no hand on the pool. Crash recovery first, so polled.
        var recovered = false
        for attempt in 0..<1200 where !recovered {
            recovered = try await PostgresReadOnlyLiveTests.post(collector.baseURL, receiptID: "after-restart-\(attempt)").status == 204
            if !recovered { try await Task.sleep(for: .milliseconds(100)) }
        }
        load.stop()
        await loading
        let tally = load.snapshot
        print(
            """
            stopped 10 s: \(tally.requests) requests, statuses \(tally.statuses), slowest answer \(tally.slowest); \
            /healthz during it \(health.map { "\($0.status) in \($0.took): \($0.body)" } ?? "not asked")
            """)
        #expect(tally.unanswered == 0)
        #expect(tally.statuses.keys.allSatisfy { $0 < 500 || $0 == 503 }, "\(tally.statuses)")
        #expect(during.statuses[503, default: 0] > 0, "the stopped database was answered 503")
        #expect(tally.unavailableWithoutRetryAfter == 0)
        // One deadline (5 s), and a loaded test machine's scheduling on top: never the connection wait plus it.
        #expect(tally.slowest < PostgresFaultTests.answerBound)
        let healthAnswer = try #require(health)
        #expect(healthAnswer.status == 503 && healthAnswer.retryAfter != nil, "\(healthAnswer)")
        #expect(healthAnswer.took < PostgresFaultTests.answerBound)
        #expect(recovered, "writes did not resume once the database was back")
        #expect(tally.unacknowledged.isEmpty, "never acknowledged: \(tally.unacknowledged.sorted().prefix(5))")
        #expect(try await collector.stop() == 0)
        try await PostgresFaultTests.expectStoredOnce(tally, url: cluster.url)
    }
}
