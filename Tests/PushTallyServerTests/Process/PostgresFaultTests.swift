import Foundation
import PushTallyCore
import PushTallyPostgres
import PushTallyTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `pushtally serve` on a real PostgreSQL that misbehaves under load: its connections killed over and
/// over, or the whole server frozen with SIGSTOP. Every request is answered within seconds (503 with
/// `Retry-After` while the database cannot commit), what was acknowledged is stored exactly once, and the
/// collector recovers by itself.
@Suite(.serialized) struct PostgresFaultTests {
    /// The most any answer may take: the commit timeout (5 s) and the wait for a connection (5 s) both bound a
    /// request, and a loaded test machine adds scheduling delays.
    static let answerBound: Duration = .seconds(10)
    /// The receipts acknowledged while connections are being killed before the kills stop.
    static let acknowledgedUnderKills = 10

    /// `pg_terminate_backend` on every connection of the collector's database every 150 ms for 30 s, and on
    /// until ten receipts were acknowledged under the kills, under load whose commits take both the
    /// one-statement and the transaction path: a connection terminated under either (its `ROLLBACK` or its
    /// commit confirmation sent to a closed connection) must not hang ingest. Bounded by its own work, not a
    /// test time limit: in a full parallel run the wait for a test database can take minutes, and a limit
    /// counting it failed a test that had not yet begun.
    @Test func killedConnectionsUnderLoad() async throws {
        try await TestPostgres.withDatabase { url in try await killLoop(url) }
    }

    func killLoop(_ url: String) async throws {
        try await DetachedRace.run(timeout: .seconds(240), onDeadline: { TestFailure("the kill loop's work did not end within 4 minutes") }) {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-kill-\(UUID().uuidString)")
            let collector = try ServerProcess(
                directory: directory, database: url,
                extraArguments: ["--device-secret", directory.appendingPathComponent("device.secret").path, "--database-connections", "4"],
                deadlines: .production)
            defer { collector.removeFiles() }
            try await collector.start()
            let database = try PostgresURL(url).database
            let load = FaultLoad(collector: collector.baseURL, pushID: "kill")
            let killed = Counter()
            let started = ContinuousClock.now
            async let loading: Void = load.run(clients: 8)
            var acknowledgedAtKill = 0
            while true {
                try await Task.sleep(for: .milliseconds(150))
                let acknowledged = load.snapshot.acknowledged.count
                let past = ContinuousClock.now - started >= .seconds(30)
                if past, acknowledged >= Self.acknowledgedUnderKills { break }
                // How many commits land between kills is a matter of the machine's speed: past the 30 s, each kill
                // waits for an acknowledgement since the one before, so a busy machine kills less often but the
                // load still has to recover from every kill.
                if past, acknowledged == acknowledgedAtKill { continue }
                try await TestPostgres.administer(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()")
                _ = killed.increment()
                acknowledgedAtKill = acknowledged
            }
            load.stop()
            await loading
            let tally = load.snapshot
            let log = collector.log
            let stalls = log.components(separatedBy: "writer stalled").count - 1
            for line in log.split(separator: "\n") where line.contains("unexpected error") || line.contains("writer stalled") {
                print("collector: \(line)")
            }
            print(
                """
                killed connections \(killed.value) times: \(tally.requests) requests, statuses \(tally.statuses), \
                slowest answer \(tally.slowest), writer stalls \(stalls)
                """)
            #expect(tally.unanswered == 0)
            #expect(tally.statuses.keys.allSatisfy { $0 < 500 || $0 == 503 }, "\(tally.statuses)")
            #expect(tally.slowest < Self.answerBound)
            #expect(tally.unavailableWithoutRetryAfter == 0)
            #expect(tally.unacknowledged.isEmpty, "never acknowledged: \(tally.unacknowledged.sorted().prefix(5))")
            #expect(tally.acknowledged.count >= Self.acknowledgedUnderKills, "the load kept going between kills")
            // Ingest goes on once the kills stop.
            #expect(try await postOne(to: collector.baseURL, receiptID: "after-kills") == 204)
            #expect(try await collector.stop() == 0)
            try await Self.expectStoredOnce(tally, url: url)
        }
    }

    /// The whole server stopped (SIGSTOP of the postmaster and its children) for 20 s under load, on a cluster
    /// of the test's own: requests meanwhile get 503 with `Retry-After` within seconds, `/healthz` says the
    /// writer stalled, the collector's sockets and memory stay bounded, and after SIGCONT it recovers by
    /// itself with every acknowledged receipt stored once.
    @Test(.enabled(if: geteuid() == 0, "needs root to create and freeze a PostgreSQL cluster of its own"), .timeLimit(.minutes(6)))
    func aFrozenDatabaseIsAnswered503AndRecovers() async throws {
        try await ThrowawayCluster.with(freezeUnderLoad)
    }

    private func freezeUnderLoad(_ cluster: ThrowawayCluster) async throws {
        let collector = try cluster.collector("freeze")
        defer { collector.removeFiles() }
        try await collector.start()
        let pid = collector.process.processIdentifier
        let load = FaultLoad(collector: collector.baseURL, pushID: "freeze")
        async let loading: Void = load.run(clients: 16)
        try await Task.sleep(for: .seconds(2))
        let before = Footprint(of: pid)
        let acknowledgedBefore = load.snapshot.acknowledged.count

        try cluster.freeze()
        var footprints: [Footprint] = []
        var health: (status: Int, retryAfter: String?, body: String, took: Duration)?
        var report: (status: Int, retryAfter: String?, body: String, took: Duration)?
        var webhooks: (status: Int, retryAfter: String?, body: String, took: Duration)?
        var metrics: (status: Int, retryAfter: String?, body: String, took: Duration)?
        let frozenAt = ContinuousClock.now
        while ContinuousClock.now - frozenAt < .seconds(20) {
            try await Task.sleep(for: .seconds(1))
            footprints.append(Footprint(of: pid))
            if health == nil, ContinuousClock.now - frozenAt > .seconds(8) {
                health = try await load.get("healthz")
                // A route outside ingest: its token check waits on the database too.
                report = try await load.get("v1/reports/campaigns", token: collector.adminToken)
                webhooks = try await load.get("v1/webhooks", token: collector.adminToken)
                // Prometheus's scrape must still succeed: the queue and error figures are what tell of the outage.
                metrics = try await load.get("metrics")
            }
        }
        let during = load.snapshot
        cluster.thaw()
        let thawedAt = ContinuousClock.now

        // Recovery by itself: a new receipt is acknowledged soon after the thaw.
        var recovered = false
        while !recovered, ContinuousClock.now - thawedAt < .seconds(30) {
            recovered = try await postOne(to: collector.baseURL, receiptID: "after-thaw-\(UUID().uuidString)") == 204
            if !recovered { try await Task.sleep(for: .milliseconds(200)) }
        }
        let recoveredAfter = ContinuousClock.now - thawedAt
        try await Task.sleep(for: .seconds(2))
        load.stop()
        await loading
        let tally = load.snapshot
        let peak = footprints.max { $0.openFiles < $1.openFiles }
        print(
            """
            frozen 20 s: \(tally.requests) requests, statuses \(tally.statuses), slowest answer \(tally.slowest); \
            before the freeze \(before), at most \(peak.map(\.description) ?? "?") during it (last \(footprints.last.map(\.description) ?? "?")); \
            /healthz during it \(health.map { "\($0.status) in \($0.took), Retry-After \($0.retryAfter ?? "none"): \($0.body)" } ?? "not asked"); \
            a report during it \(report.map { "\($0.status) in \($0.took)" } ?? "not asked"); \
            recovered \(recoveredAfter) after the thaw
            """)
        #expect(acknowledgedBefore > 0)
        #expect(tally.unanswered == 0)
        #expect(tally.statuses.keys.allSatisfy { $0 < 500 || $0 == 503 }, "\(tally.statuses)")
        #expect(tally.slowest < Self.answerBound)
        #expect(during.statuses[503, default: 0] > 0, "the freeze was answered 503")
        #expect(tally.unavailableWithoutRetryAfter == 0)
        let healthAnswer = try #require(health)
        #expect(healthAnswer.status == 503)
        #expect(healthAnswer.retryAfter != nil)
        #expect(healthAnswer.body.contains("writer_stalled"), "\(healthAnswer.body)")
        #expect(healthAnswer.took < Self.answerBound)
        let reportAnswer = try #require(report)
        #expect(reportAnswer.status == 503 && reportAnswer.retryAfter != nil, "\(reportAnswer)")
        #expect(reportAnswer.took < Self.answerBound)
        let webhooksAnswer = try #require(webhooks)
        #expect(webhooksAnswer.status == 503 && webhooksAnswer.retryAfter != nil, "\(webhooksAnswer)")
        #expect(webhooksAnswer.took < Self.answerBound)
        let metricsAnswer = try #require(metrics)
        #expect(metricsAnswer.status == 200 && metricsAnswer.body.contains("pushtally_writer_queue_events"), "\(metricsAnswer)")
        #expect(metricsAnswer.took < Self.answerBound)
        // 16 clients, each with at most a connection or two of its own, and the database pool's 8.
        #expect((peak?.openFiles ?? .max) < before.openFiles + 64, "open files grew from \(before) to \(peak.map(\.description) ?? "?")")
        #expect((peak?.residentKilobytes ?? .max) < before.residentKilobytes + 64 * 1024)
        #expect(recovered, "no receipt acknowledged within 30 s of the thaw")
        #expect(tally.unacknowledged.isEmpty, "never acknowledged: \(tally.unacknowledged.sorted().prefix(5))")
        #expect(try await collector.stop() == 0)
        try await Self.expectStoredOnce(tally, url: cluster.url)
    }

    /// SIGTERM while the database is frozen under load: the collector exits within systemd's stop timeout
    /// (`TimeoutStopSec=30` in deploy/pushtally.service), whatever its writer was doing. Meanwhile, with
    /// `--max-ingest-in-flight 4` and 8 clients, the requests past the bound are shed at once.
    @Test(.enabled(if: geteuid() == 0, "needs root to create and freeze a PostgreSQL cluster of its own"), .timeLimit(.minutes(6)))
    func sigtermExitsWhileTheDatabaseIsFrozen() async throws {
        try await ThrowawayCluster.with(stopWhileFrozen)
    }

    private func stopWhileFrozen(_ cluster: ThrowawayCluster) async throws {
        let collector = try cluster.collector("stop", extraArguments: ["--max-ingest-in-flight", "4"])
        defer { collector.removeFiles() }
        try await collector.start()
        let load = FaultLoad(collector: collector.baseURL, pushID: "stop")
        async let loading: Void = load.run(clients: 8, giveUp: .seconds(1))
        try await Task.sleep(for: .seconds(1))
        try cluster.freeze()
        // Commits in flight and queued behind them when the signal comes.
        try await Task.sleep(for: .seconds(2))
        let shed = load.snapshot.shed
        let signalled = ContinuousClock.now
        collector.process.send(SIGTERM)
        let exited = await collector.process.waitUntilExit(timeout: .seconds(40))
        let took = ContinuousClock.now - signalled
        load.stop()
        await loading
        print(
            """
            SIGTERM with the database frozen: exited \(exited) after \(took), status \(exited ? collector.process.terminationStatus : -1); \
            \(shed) requests shed in the 2 s before it
            """)
        #expect(shed > 0, "requests past --max-ingest-in-flight are answered 503 with Retry-After: 1 at once")
        #expect(exited)
        #expect(took < .seconds(30), "systemd kills after TimeoutStopSec=30")
        if !exited { collector.process.send(SIGKILL) }
        cluster.thaw()
        // Whatever was acknowledged before the freeze is stored.
        try await Self.expectStoredOnce(load.snapshot, url: cluster.url, allowingUnacknowledged: true)
    }

    /// Every acknowledged receipt is stored exactly once as new (its other copies as duplicates), and nothing
    /// else of the load was: a receipt whose 503 hid a commit that went through is recognised on its retry.
    static func expectStoredOnce(_ tally: FaultLoad.Tally, url: String, allowingUnacknowledged: Bool = false) async throws {
        let store = try await PostgresStore(url: url, deviceSecretPath: nil)
        defer { store.closeInBackground() }
        let rows = try await store.textRows(
            "SELECT receipt_id, count(*) FILTER (WHERE NOT duplicate) FROM events WHERE receipt_id NOT LIKE 'after-%' GROUP BY receipt_id")
        var storedAsNew: [String: Int] = [:]
        for row in rows { storedAsNew[row[0] ?? ""] = Int(row[1] ?? "") ?? -1 }
        for receiptID in tally.acknowledged.keys where storedAsNew[receiptID] != 1 {
            Issue.record("acknowledged \(receiptID) is stored \(storedAsNew[receiptID] ?? 0) times as new")
        }
        for (receiptID, count) in storedAsNew where tally.acknowledged[receiptID] == nil {
            // Only a receipt given up on may be stored unacknowledged (its outcome was unknown); never twice.
            #expect(allowingUnacknowledged || tally.unacknowledged.contains(receiptID), "\(receiptID) stored but never acknowledged")
            #expect(count <= 1, "\(receiptID) stored \(count) times as new")
        }
        if !allowingUnacknowledged { #expect(storedAsNew.count == tally.acknowledged.count) }
    }

    private func postOne(to collector: URL, receiptID: String) async throws -> Int {
        try await httpRequest(
            collector.appendingPathComponent("v1/receipts"), method: "POST",
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("push_id=after&receipt_id=\(receiptID)".utf8)
        ).status
    }
}
