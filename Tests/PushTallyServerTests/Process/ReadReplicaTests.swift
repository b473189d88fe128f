import Foundation
import PushTallyTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reports read from a real PostgreSQL streaming standby (`serve --read-database`), and read from the primary
/// whenever the standby lags past `--max-read-lag` or does not answer. Real collector processes, a real
/// primary and a real standby made by `scripts/postgres standby`.
@Suite(.serialized) struct ReadReplicaTests {
    /// A collector on `primaryURL` reading reports from `standby`, with the device secret in its folder.
    private func collector(_ primaryURL: String, standby: TestStandby?, _ extra: [String] = []) throws -> ServerProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-replica-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let replica = try standby.map { ["--read-database", try $0.url(of: primaryURL)] } ?? []
        // One secret per database, shared by its collectors as every collector of a database must.
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushtally-replica-\(primaryURL.split(separator: "/").last ?? "db").secret")
        return try ServerProcess(
            directory: directory, database: primaryURL, extraArguments: ["--device-secret", secret.path] + replica + extra)
    }

    private func started(_ server: ServerProcess) async throws {
        do {
            try await server.start()
        } catch {
            throw TestFailure("\(error); the collector logged: \(server.log)")
        }
    }

    /// Registers push `id` of campaign `launch` with `sent` devices and posts `displays` receipts for it.
    private func send(_ id: String, sent: Int, displays: Int, to server: ServerProcess, token: String) async throws {
        do {
            try await post(id, sent: sent, displays: displays, to: server, token: token)
        } catch {
            throw TestFailure("\(error); the collector logged: \(server.log)")
        }
    }

    private func post(_ id: String, sent: Int, displays: Int, to server: ServerProcess, token: String) async throws {
        let put = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/pushes/\(id)"), method: "PUT",
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
            body: Data(#"{"campaign":"launch","sent":\#(sent)}"#.utf8))
        #expect(put.status == 200 || put.status == 201, "\(String(decoding: put.body, as: UTF8.self))")
        let receipts = (0..<displays).map { #"{"push_id":"\#(id)","device_id":"d\#($0)"}"# }.joined(separator: ",")
        let post = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data("[\(receipts)]".utf8))
        #expect(post.status == 200, "\(String(decoding: post.body, as: UTF8.self))")
    }

    private func campaigns(_ server: ServerProcess, token: String) async throws -> (body: String, source: String?, lag: String?) {
        let answer = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/reports/campaigns"), headers: ["Authorization": "Bearer \(token)"])
        #expect(answer.status == 200)
        return (String(decoding: answer.body, as: UTF8.self), answer.headers["pushtally-read-source"], answer.headers["pushtally-data-lag"])
    }

    private func metrics(_ server: ServerProcess) async throws -> String {
        String(decoding: try await httpRequest(server.baseURL.appendingPathComponent("metrics")).body, as: UTF8.self)
    }

    /// The value of the unlabelled series `name` in a scrape.
    private func value(_ name: String, in exported: String) -> Double? {
        exported.split(separator: "\n").lazy.compactMap { line -> Double? in
            let parts = line.split(separator: " ")
            return parts.count == 2 && parts[0] == name ? Double(parts[1]) : nil
        }.first
    }

    /// Scrapes until the next sample of the replica (every second) shows `name` at `expected` (a guard of 60 s).
    private func metricsOnceTheyShow(_ name: String, _ expected: Double, _ server: ServerProcess) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let exported = try await metrics(server)
            if value(name, in: exported) == expected { return exported }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw TestFailure("/metrics never showed \(name) at \(expected)")
    }

    /// Asks until `server`'s campaigns report comes from `source` (a guard of 60 s, not a timing check: the
    /// collector samples its replica every second).
    private func waitForSource(_ source: String, _ server: ServerProcess, token: String) async throws -> (body: String, lag: String?) {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let answer = try await campaigns(server, token: token)
            if answer.source == source { return (answer.body, answer.lag) }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw TestFailure("reports never came from the \(source)")
    }

    @Test func reportsFromTheStandbyEqualThePrimarysOnceCaughtUp() async throws {
        try await TestStandby.withStandbyAndDatabase { standby, url in
            let withReplica = try collector(url, standby: standby)
            defer { withReplica.removeFiles() }
            try await started(withReplica)
            let token = withReplica.adminToken
            let primaryOnly = try collector(url, standby: nil)
            defer { primaryOnly.removeFiles() }
            try await started(primaryOnly)

            try await send("p1", sent: 10, displays: 7, to: withReplica, token: token)
            try await standby.waitForCatchUp(primaryURL: url)
            let fromReplica = try await waitForSource("replica", withReplica, token: token)
            let fromPrimary = try await campaigns(primaryOnly, token: token)
            #expect(fromPrimary.source == "primary")
            #expect(fromPrimary.lag == "0")
            #expect(fromReplica.body == fromPrimary.body)
            #expect(fromReplica.body.contains(#""displayed":7"#))
            #expect(fromReplica.lag.flatMap(Double.init) != nil)

            // Proof the answer came from the standby: with its replay paused, new receipts reach the primary's
            // report but not the replica's (within --max-read-lag).
            try await standby.pauseReplay()
            try await send("p2", sent: 5, displays: 5, to: withReplica, token: token)
            let stale = try await campaigns(withReplica, token: token)
            let fresh = try await campaigns(primaryOnly, token: token)
            #expect(stale.source == "replica")
            #expect(stale.body == fromReplica.body)
            #expect(fresh.body.contains(#""displayed":12"#))
            try await standby.resumeReplay()

            let exported = try await metrics(withReplica)
            #expect(value("pushtally_read_replica_up", in: exported) == 1)
            #expect(value("pushtally_read_replica_lag_seconds", in: exported) != nil)
            #expect(exported.contains(#"pushtally_report_reads_total{source="replica"}"#))
            #expect(try await withReplica.stop() == 0)
            #expect(try await primaryOnly.stop() == 0)
        }
    }

    @Test func aLaggingOrStoppedStandbySendsReportsToThePrimary() async throws {
        try await TestStandby.withStandbyAndDatabase { standby, url in
            let server = try collector(url, standby: standby, ["--max-read-lag", "1s"])
            defer { server.removeFiles() }
            try await started(server)
            let token = server.adminToken
            try await send("p1", sent: 4, displays: 2, to: server, token: token)
            try await standby.waitForCatchUp(primaryURL: url)
            _ = try await waitForSource("replica", server, token: token)

            // Replay paused while the primary takes writes: the standby falls behind past 1 s.
            try await standby.pauseReplay()
            try await send("p2", sent: 4, displays: 3, to: server, token: token)
            let lagging = try await waitForSource("primary", server, token: token)
            #expect(lagging.lag == "0")
            #expect(lagging.body.contains(#""displayed":5"#), "the primary's figures, not the standby's")
            try await standby.resumeReplay()
            _ = try await waitForSource("replica", server, token: token)

            // Stopped: every report still answers, from the primary, at once.
            try await standby.stop()
            let answer = try await campaigns(server, token: token)
            #expect(answer.source == "primary")
            #expect(answer.body.contains(#""displayed":5"#))
            let exported = try await metricsOnceTheyShow("pushtally_read_replica_up", 0, server)
            #expect(exported.contains(#"pushtally_report_reads_total{source="primary"}"#))

            // Back: reports return to it.
            try await standby.restart()
            _ = try await waitForSource("replica", server, token: token)
            #expect(try await server.stop() == 0)
        }
    }

    @Test func theCLIReadsReportsFromTheStandbyAndFallsBackWhenItIsDown() async throws {
        try await TestStandby.withStandbyAndDatabase { standby, url in
            let server = try collector(url, standby: nil)
            defer { server.removeFiles() }
            try await started(server)
            try await send("p1", sent: 6, displays: 4, to: server, token: server.adminToken)
            #expect(try await server.stop() == 0)
            try await standby.waitForCatchUp(primaryURL: url)

            let primary = try await runPushtally(["report", "campaigns", "--format", "json", "--database", url])
            let replica = try await runPushtally([
                "report", "campaigns", "--format", "json", "--database", url, "--read-database", try standby.url(of: url),
            ])
            #expect(replica.status == 0, "\(replica.stderr)")
            #expect(replica.stdout == primary.stdout)
            #expect(replica.stderr.isEmpty)
            let rate = try await runPushtally(
                ["rate", "--campaign", "launch", "--database", url], environment: ["PUSHTALLY_READ_DATABASE": try standby.url(of: url)])
            let primaryRate = try await runPushtally(["rate", "--campaign", "launch", "--database", url])
            #expect(rate.status == 0, "\(rate.stderr)")
            #expect(rate.stdout == primaryRate.stdout)
            #expect(!rate.stdout.isEmpty)

            try await standby.stop()
            let fallback = try await runPushtally([
                "report", "campaigns", "--format", "json", "--database", url, "--read-database", try standby.url(of: url),
            ])
            #expect(fallback.status == 0, "\(fallback.stderr)")
            #expect(fallback.stdout == primary.stdout)
            #expect(fallback.stderr.contains("reading from the primary"))
        }
    }

    @Test func aReadDatabaseNeedsPostgresAndADuration() async throws {
        let sqlite = try await runPushtally([
            "report", "campaigns", "--database", "/tmp/none.sqlite", "--read-database", "postgres://u:p@127.0.0.1:1/x",
        ])
        #expect(sqlite.status == 64)
        #expect(sqlite.stderr.contains("--read-database"))
        let serve = try await runPushtally([
            "serve", "--port", "0", "--database", "/tmp/none.sqlite", "--read-database", "postgres://u:p@127.0.0.1:1/x",
        ])
        #expect(serve.status == 64)
        #expect(serve.stderr.contains("--read-database needs a PostgreSQL --database"))
        let lag = try await runPushtally(["serve", "--port", "0", "--max-read-lag", "soon"])
        #expect(lag.status == 64)
        #expect(lag.stderr.contains("--max-read-lag"))
    }
}
