import Foundation
import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// A PostgreSQL database made read-only under a steady load of unique receipts (as a failover to a standby
/// not yet promoted looks): every answer meanwhile is a `503` with `Retry-After` whose body says why, the log
/// says so a few times, not once a request, and once the database can write again the same collector writes
/// again by itself. Every acknowledged receipt is stored once.
@Suite(.serialized) struct PostgresReadOnlyLiveTests {
    @Test func aReadOnlyDatabaseUnderLoadIs503AndRecoversByItself() async throws {
        try await TestPostgres.withDatabase { url in try await readOnlyUnderLoad(url) }
    }

    func readOnlyUnderLoad(_ url: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-read-only-\(UUID().uuidString)")
        let collector = try ServerProcess(
            directory: directory, database: url,
            extraArguments: ["--device-secret", directory.appendingPathComponent("device.secret").path], deadlines: .production)
        defer { collector.removeFiles() }
        try await collector.start()
        let database = try PostgresURL(url).database
        let load = FaultLoad(collector: collector.baseURL, pushID: "read-only")
        async let loading: Void = load.run(clients: 4)
        // Some acknowledged first, however slow the machine.
        while load.snapshot.acknowledged.count < 5 { try await Task.sleep(for: .milliseconds(50)) }

        let faultStarted = ContinuousClock.now
        try await TestPostgres.administer(#"ALTER DATABASE "\#(database)" SET default_transaction_read_only = on"#)
        try await TestPostgres.administer(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()")
        // A receipt of the test's own, until one meets a read-only session: a 503 that says so.
        var refusal: (status: Int, retryAfter: String?, body: String)?
        for attempt in 0..<600 where refusal.map({ !$0.body.contains("read-only") }) ?? true {
            refusal = try await Self.post(collector.baseURL, receiptID: "after-probe-\(attempt)")
            if refusal?.status == 204 { try await Task.sleep(for: .milliseconds(50)) }
        }
        let refused = try #require(refusal)
        #expect(refused.status == 503, "\(refused)")
        #expect(refused.retryAfter == "5")
        #expect(refused.body.contains(#""error":"unavailable""#) && refused.body.contains("read-only"), "\(refused.body)")
        let refusalsBefore = load.snapshot.statuses[503] ?? 0
        // Read-only for a while under load.
        try await Task.sleep(for: .seconds(5))
        #expect((load.snapshot.statuses[503] ?? 0) > refusalsBefore, "the load went on meeting the read-only database")

        try await TestPostgres.administer(#"ALTER DATABASE "\#(database)" RESET default_transaction_read_only"#)
        // No restart and no hand on the collector's connections.
        var resumed = false
        for attempt in 0..<600 where !resumed {
            resumed = try await Self.post(collector.baseURL, receiptID: "after-resume-\(attempt)").status == 204
            if !resumed { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(resumed, "writes did not resume once the database could write")
        let faultSeconds = Int((ContinuousClock.now - faultStarted).components.seconds)
        load.stop()
        await loading
        let tally = load.snapshot
        print("read-only: \(tally.requests) requests, statuses \(tally.statuses), for \(faultSeconds) s")

        #expect(tally.unanswered == 0)
        #expect(tally.statuses.keys.allSatisfy { (200..<300).contains($0) || $0 == 503 }, "\(tally.statuses)")
        #expect(tally.unavailableWithoutRetryAfter == 0)
        #expect(tally.unacknowledged.isEmpty)
        // One line when it starts, then at most one each 10 s with the count left out; never a line a request.
        let log = collector.log
        let lines = log.split(separator: "\n").filter { $0.contains("database unavailable") }
        #expect(!lines.isEmpty, "the fault was never logged")
        #expect(lines.count <= faultSeconds / 10 + 2, "\(lines.count) lines in \(faultSeconds) s")
        #expect(!log.contains("unexpected error"), "a fault of the database logged as the collector's own")
        #expect(try await collector.stop() == 0)
        try await PostgresFaultTests.expectStoredOnce(tally, url: url)
    }

    static func post(_ collector: URL, receiptID: String) async throws -> (status: Int, retryAfter: String?, body: String) {
        let response = try await httpRequest(
            collector.appendingPathComponent("v1/receipts"), method: "POST",
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("push_id=after&receipt_id=\(receiptID)".utf8))
        return (response.status, response.headers["retry-after"], String(decoding: response.body, as: UTF8.self))
    }
}
