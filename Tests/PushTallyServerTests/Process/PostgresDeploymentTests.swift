import Foundation
import PushTallyCore
import PushTallyPostgres
import PushTallySQLite
import PushTallyTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Several stateless collectors on one PostgreSQL, and moving a SQLite deployment there: real `pushtally`
/// processes, a real PostgreSQL server (scripts/test starts it), no mocks.
@Suite(.serialized) struct PostgresDeploymentTests {
    /// Receipts posted at random collectors by concurrent clients that retry on any failure, re-send some
    /// receipts on purpose, while one collector is killed with SIGKILL mid-load.
    @Test func collectorsShareOneDatabaseAndSurviveOneBeingKilled() async throws {
        try await FreshStore.with(.postgres, name: "multi") { fresh in
            let (url, directory) = (fresh.database, fresh.directory)
            let secret = fresh.secretPath
            var collectors: [ServerProcess] = []
            defer { collectors.forEach { $0.removeFiles() } }
            for index in 0..<3 {
                let collector = try ServerProcess(
                    directory: directory.appendingPathComponent("collector-\(index)"), database: url,
                    extraArguments: ["--device-secret", secret, "--database-connections", "4"])
                try await collector.start()
                collectors.append(collector)
            }
            let ports = collectors.map(\.port)
            let clients = 6
            let receiptsPerClient = 120
            let victim = 1
            let victimProcess = collectors[victim]
            let progress = Counter()
            let killed = Counter()

            // Every client keeps posting each receipt until a collector acknowledges it.
            let acknowledged = try await withThrowingTaskGroup(of: [String: Int].self) { group in
                for client in 0..<clients {
                    group.addTask {
                        var generator = SystemRandomNumberGenerator()
                        var acked: [String: Int] = [:]
                        for index in 0..<receiptsPerClient {
                            let receiptID = "c\(client)-r\(index)"
                            let body = Data(
                                #"{"push_id":"p\#(index % 5)","receipt_id":"\#(receiptID)","device_id":"dev-\#(client)-\#(index)"}"#.utf8)
                            // Some receipts are sent twice on purpose, as a flaky network's retry would.
                            let copies = Int.random(in: 0..<4, using: &generator) == 0 ? 2 : 1
                            for _ in 0..<copies {
                                var attempts = 0
                                while true {
                                    attempts += 1
                                    let port = ports.randomElement(using: &generator)!
                                    let status = try? await httpRequest(
                                        URL(string: "http://127.0.0.1:\(port)/v1/receipts")!, method: "POST",
                                        headers: ["Content-Type": "application/json"], body: body
                                    ).status
                                    if let status, (200..<300).contains(status) {
                                        acked[receiptID, default: 0] += 1
                                        break
                                    }
                                    guard attempts < 50 else { throw TestFailure("\(receiptID) was never acknowledged") }
                                }
                            }
                            if progress.increment() == clients * receiptsPerClient / 3, killed.increment() == 1 {
                                _ = try await victimProcess.stop(signal: SIGKILL)
                            }
                        }
                        return acked
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0.merge($1, uniquingKeysWith: +) }
            }
            #expect(killed.value == 1, "the victim was killed mid-load")
            #expect(acknowledged.count == clients * receiptsPerClient)

            // The survivors stop cleanly; then the database must hold every acknowledged receipt exactly once.
            for (index, collector) in collectors.enumerated() where index != victim {
                #expect(try await collector.stop() == 0)
            }
            let store = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            let perReceipt = try await store.textRows(
                "SELECT receipt_id, count(*) FILTER (WHERE NOT duplicate), count(*) FROM events GROUP BY receipt_id")
            #expect(perReceipt.count == acknowledged.count)
            for row in perReceipt {
                let receiptID = row[0] ?? ""
                #expect(row[1] == "1", "\(receiptID) stored \(row[1] ?? "?") times as new")
                // A retry whose first attempt committed before its answer was lost is stored again, as a duplicate.
                #expect(Int(row[2] ?? "") ?? 0 >= acknowledged[receiptID] ?? 0, "\(receiptID): fewer rows than acknowledgements")
            }
            // Report figures equal a recount from the raw events.
            let figures = try await store.pushFigures()
            let recount = try await store.textRows(
                "SELECT push_id, count(*), count(*) FILTER (WHERE duplicate) FROM events GROUP BY push_id ORDER BY push_id")
            #expect(figures.map(\.pushID) == recount.map { $0[0] ?? "" })
            // Receipt "c<client>-r<index>" went to push "p<index % 5>".
            var uniquePerPush: [String: Int64] = [:]
            for receiptID in acknowledged.keys {
                uniquePerPush["p\((Int(receiptID.split(separator: "r").last ?? "") ?? 0) % 5)", default: 0] += 1
            }
            for (push, row) in zip(figures, recount) {
                #expect(push.funnel.displayed == Int64(row[1] ?? "") ?? -1)
                #expect(push.funnel.duplicates == Int64(row[2] ?? "") ?? -1)
                #expect(push.funnel.displayedUnique == uniquePerPush[push.pushID])
            }
            #expect(figures.reduce(0) { $0 + $1.funnel.displayedUnique } == Int64(clients * receiptsPerClient))
        }
    }

    /// `migrate-store` copies a SQLite deployment (events, rollups, ledger, pushes, tokens, device secret) so
    /// that every report reads the same, and a collector on PostgreSQL goes on recognising old retries.
    @Test func migrateStoreCopiesASQLiteDeployment() async throws {
        try await FreshStore.with(.postgres, name: "migrate") { fresh in
            let (url, directory) = (fresh.database, fresh.directory)
            let sqlitePath = directory.appendingPathComponent("old.sqlite").path
            let now = StoreConfiguration.systemClock()
            do {
                let old = try SQLiteStore(path: sqlitePath, commitTimeout: FreshStore.patientCommitTimeout)
                defer { old.closeInBackground() }
                var events: [IncomingEvent] = []
                for index in 0..<300 {
                    let isAction = index % 4 == 0
                    let receiptID: String? = index % 3 == 0 ? "r\(index)" : nil
                    let appVersion: String? = index % 2 == 0 ? "3.1" : nil
                    let deviceTime: Int64 = now - Int64(index) * 60_000
                    var event = IncomingEvent(
                        pushID: "p\(index % 7)", kind: isAction ? .action : .display, action: isAction ? "open" : "",
                        deviceID: "device-\(index % 40)", receiptID: receiptID, deviceTimeMillis: deviceTime,
                        appVersion: appVersion)
                    // Media outcomes and extension times (some unknown): their rollups and ledger move too.
                    event.media = [.attached, .timedOut, .failed, nil][index % 4]
                    event.extensionMillis = index % 5 == 0 ? nil : Int64(index) * 97
                    // Platforms (some none): the per-bucket platform rollup and its ledger move too.
                    event.platform = ["ios", "android", "web", "kaios", nil][index % 5]
                    events.append(event)
                }
                // Sessions and conversions too: their credits, outcome rollups and ledger move with the rest.
                for index in 0..<40 {
                    events.append(.session(deviceID: "device-\(index)", sessionID: "s\(index)", deviceTimeMillis: now - Int64(index) * 30_000))
                    if index % 5 == 0 {
                        events.append(.conversion(
                            deviceID: "device-\(index)", name: "purchase", valueMicros: Int64(index) * 250_000, currency: "EUR",
                            deviceTimeMillis: now - Int64(index) * 20_000))
                    }
                }
                _ = try await old.ingest(events)
                try await old.register(PushRegistration(pushID: "p1", campaign: "夏のセール", sentAtMillis: now - 86_400_000, counts: SendCounts(sent: 90)))
                try await old.addSends(SendBatch(pushID: "p2", batchID: "w1", campaign: "other", counts: SendCounts(targeted: 5, sent: 4, failed: ["Unregistered": 1])))
                // Half the raw events pruned into the ledger, so the copy must carry it.
                _ = try await old.prune(receivedBefore: now + 1, batchSize: 150)
                _ = try await old.ingest([IncomingEvent(pushID: "p3", kind: .display, deviceID: "late-device")])
                _ = try await old.createToken(role: .ingest, label: "app")
                try await old.createWebhook(
                    WebhookEndpoint(
                        id: "wh_moved", url: "https://hooks.example.com/in", events: [.alertFiring, .pushRegistered],
                        description: "ops", createdAtMillis: now, status: .active),
                    secret: "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
                try await old.createAlert(Alert.new(
                    AlertRule(name: "moved", kind: .displayRateDrop, windowMillis: 3_600_000, threshold: 0.35, minSent: 50), at: now))
            }
            let secret = directory.appendingPathComponent("pg.secret").path
            let run = try await runPushtally(["migrate-store", "--from", sqlitePath, "--to", url, "--device-secret", secret])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("reports match"))
            #expect(run.stderr.contains("events"), "a progress line per table")

            for report in [
                ["campaigns"], ["pushes"], ["versions", "--dimension", "os_version"], ["versions"], ["timeseries", "--bucket", "hour"],
                ["timeseries", "--bucket", "hour", "--platform", "web"], ["timeseries", "--bucket", "hour", "--platform", "unknown"],
                ["pushes", "--platform", "android"],
            ] {
                let fromSQLite = try await runPushtally(["report"] + report + ["--format", "json", "--database", sqlitePath])
                let fromPostgres = try await runPushtally(["report"] + report + ["--format", "json", "--database", url])
                #expect(fromSQLite.status == 0, "\(fromSQLite.stderr)")
                #expect(fromPostgres.stdout == fromSQLite.stdout, "report \(report) differs after migrate-store")
            }
            let copied = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            #expect(try await copied.outcomeTotals(fromMillis: nil, toMillis: nil).sessions == 40)
            #expect(try await copied.pushFigures().contains { $0.funnel.outcomes.influencedOpens > 0 })
            #expect(try await copied.pushFigures().contains { $0.funnel.media.timedOut > 0 && $0.funnel.media.extensionTime.total > 0 })
            await copied.shutdown()
            // A second run refuses: the target is no longer empty.
            let again = try await runPushtally(["migrate-store", "--from", sqlitePath, "--to", url, "--device-secret", secret])
            #expect(again.status == 4)
            #expect(again.stderr.contains("already holds data"))

            // The copied secret keys devices as before: a retry from before the move is still recognised.
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            #expect(try await store.ingest([IncomingEvent(pushID: "p3", kind: .display, deviceID: "late-device")]) == [true])
            #expect(try await store.listTokens().map(\.label) == ["app"])
            // Webhook endpoints and alert rules move with the deployment, fractions intact.
            #expect(try await store.webhooks().map(\.id) == ["wh_moved"])
            #expect(try await store.webhooks().first?.events == [.pushRegistered, .alertFiring])
            let alert = try #require(try await store.alerts().first)
            #expect(alert.rule.name == "moved" && alert.rule.threshold == 0.35 && alert.rule.kind == .displayRateDrop)
        }
    }
}

extension PostgresDeploymentTests {
    /// A collector whose database goes away answers 503 with a JSON error and `Retry-After`, never a 500 or
    /// a crash, and says so on `/healthz`.
    @Test func aLostDatabaseIsA503() async throws {
        let url = try await TestPostgres.createDatabase()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-lost-\(UUID().uuidString)")
        let collector = try ServerProcess(
            directory: directory, database: url,
            extraArguments: ["--device-secret", directory.appendingPathComponent("device.secret").path, "--database-connections", "4"],
            deadlines: .production)
        defer { collector.removeFiles() }
        try await collector.start()
        let receipts = collector.baseURL.appendingPathComponent("v1/receipts")
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        #expect(try await httpRequest(receipts, method: "POST", headers: form, body: Data("push_id=1".utf8)).status == 204)
        await TestPostgres.dropDatabase(url)
        let answer = try await httpRequest(receipts, method: "POST", headers: form, body: Data("push_id=2".utf8))
        #expect(answer.status == 503)
        #expect(answer.headers["retry-after"] != nil)
        let error = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        #expect(error?["error"] as? String == "unavailable", "\(String(decoding: answer.body, as: UTF8.self))")
        let health = try await httpRequest(collector.baseURL.appendingPathComponent("healthz"))
        #expect(health.status == 503)
        #expect(health.headers["retry-after"] == "5")
        #expect(collector.process.isRunning)
    }
}

/// A counter shared by test tasks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds one and returns the new count.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
