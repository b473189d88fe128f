// Storage-side benchmarks for `scripts/bench`: batch ingest against a bare GRDB baseline doing the same
// inserts and rollup upserts, bytes on disk per raw receipt, and report speed against a GROUP BY over raw rows.
// Usage: pushtally-store-bench [--ingest N] [--ingest-rounds N] [--report-receipts N] [--report-rounds N] [--report-iterations N]
//        [--dir PATH] [--report-database PATH] [--series-iterations N]   (--ingest 0 skips batch ingest; a
//        --report-database that exists is reused as loaded, one that does not is loaded and kept, for profiling
//        reports without reloading; --report-rounds 0 runs the reports alone, for a profiler)
//        [--only store|bare] [--shape 0|1]   (one side and one receipt shape of the ingest, for a profiler;
//        --report-receipts 0: ingest only, as scripts/bench's batch part runs it)
//        [--sqlite-cache-mb N]   (the store's writer page cache, as `serve --sqlite-cache-mb`; default 8)
//        [--deliveries N] [--delivery-days D]   (per-device deliveries alone: N devices, a push a day for D days)
//        [--seed-commits N] [--commit-size S] [--commit-rounds R]   (the seed request's group commit alone: the
//        writer's CPU for N commits of S single receipts, against the bare durable baseline's commit; default S 25, R 5)
import Foundation
import GRDB
import PushTallyCore
import PushTallySQLite

func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = CommandLine.arguments.firstIndex(of: name), index + 1 < CommandLine.arguments.count else { return fallback }
    return Int(CommandLine.arguments[index + 1]) ?? fallback
}

let ingestCount = option("--ingest", 200_000)
/// Rounds of batch ingest, the store and the bare loop back to back in each (order alternating).
let ingestRounds = max(1, option("--ingest-rounds", 1))
let sqliteCacheMegabytes = option("--sqlite-cache-mb", StoreConfiguration().sqliteCacheMegabytes)
let reportReceipts = option("--report-receipts", 2_000_000)
let reportIterations = option("--report-iterations", 15)
let reportRounds = option("--report-rounds", 5)
/// For profiling one side alone (`--only store` or `--only bare`; both by default) and one shape
/// (`--shape 0` push_id only, `--shape 1` with ids; both by default).
let only: String? = CommandLine.arguments.firstIndex(of: "--only").flatMap { $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil }
let shapes = option("--shape", -1) == -1 ? [false, true] : [option("--shape", 0) == 1]
let reportDatabase: String? = {
    guard let index = CommandLine.arguments.firstIndex(of: "--report-database"), index + 1 < CommandLine.arguments.count else { return nil }
    return CommandLine.arguments[index + 1]
}()
let directory: URL = {
    if let index = CommandLine.arguments.firstIndex(of: "--dir"), index + 1 < CommandLine.arguments.count {
        return URL(fileURLWithPath: CommandLine.arguments[index + 1])
    }
    return FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-bench-\(UUID().uuidString)")
}()
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }


/// Bytes of a database file after a full checkpoint (WAL folded in).
func bytesOnDisk(_ path: String) throws -> Int {
    let queue = try DatabaseQueue(path: path)
    return try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        return try Int.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()") ?? 0
    }
}

let now = Int64(Date().timeIntervalSince1970 * 1000)
/// Every push was sent six days ago (inside the 7-day clamp on device clocks).
let sentAt = now - 6 * 86_400_000
/// Receipts as they arrive in the field: 90% within an hour of the send, the rest over the following days
/// (devices offline, coalesced pushes delivered late), spread by a fixed hash so runs are repeatable.
func receipts(_ count: Int, pushes: Int, ids: Bool, offset: Int = 0) -> [IncomingEvent] {
    (0..<count).map { i in
        let n = i + offset
        let spread = (n &* 2_654_435_761) & 0x7fff_ffff
        let delaySeconds = spread % 10 < 9 ? spread % 3600 : spread % (6 * 86_400)
        return IncomingEvent(
            pushID: "push-\(n % pushes)", kind: .display, deviceID: ids ? "device-\(n)" : nil,
            receiptID: ids ? UUID().uuidString : nil, deviceTimeMillis: sentAt + Int64(delaySeconds) * 1000)
    }
}

/// Bytes of the raw events table alone (SQLite's dbstat), for the per-receipt figure.
func rawTableBytes(_ path: String) throws -> Int {
    try DatabaseQueue(path: path).read { db in
        try Int.fetchOne(db, sql: "SELECT SUM(pgsize) FROM dbstat WHERE name = 'events'") ?? 0
    }
}

let seedCommits = option("--seed-commits", 0)
if seedCommits > 0 {
    let size = option("--commit-size", 25), rounds = option("--commit-rounds", 5)
    print("== the seed request's group commit: \(seedCommits) commits of \(size) single receipts a round, \(rounds) rounds against the bare durable baseline's commit")
    try CommitRounds(commits: seedCommits, size: size, rounds: rounds, directory: directory).run()
    try? FileManager.default.removeItem(at: directory)
    exit(0)
}

let deliveryDevices = option("--deliveries", 0)
if deliveryDevices > 0 {
    try await DeliveryRounds(devices: deliveryDevices, days: option("--delivery-days", 7), directory: directory).run()
    try? FileManager.default.removeItem(at: directory)
    exit(0)
}

if ingestCount > 0 {
    print("== batch ingest: \(ingestCount) receipts in batches of 1,000, 4 concurrent submitters (1,000 registered pushes; 90% of receipts within an hour of sent_at), \(ingestRounds) round(s) against the bare loop")
    let rounds = IngestRounds(
        count: ingestCount, rounds: ingestRounds, directory: directory, sqliteCacheMegabytes: sqliteCacheMegabytes, only: only)
    for ids in shapes { try await rounds.run(ids: ids) }
}

// `--report-receipts 0`: ingest only (scripts/bench's batch part compares HTTP batches with this ingest).
if reportReceipts == 0 {
    try? FileManager.default.removeItem(at: directory)
    exit(0)
}

print("== reports over \(reportReceipts) receipts across 1,000 pushes and 50 campaigns")
// A kept database (--report-database) is loaded once and reused by later runs: the load takes minutes.
let reportPath = reportDatabase ?? directory.appendingPathComponent("reports.sqlite").path
let reuse = reportDatabase != nil && FileManager.default.fileExists(atPath: reportPath)
let reportStore = try SQLiteStore(path: reportPath)
if reuse {
    print("reusing \(reportPath)")
} else {
    for push in 0..<1000 {
        try await reportStore.register(PushRegistration(
            pushID: "push-\(push)", campaign: "campaign-\(push % 50)", sentAtMillis: sentAt, counts: SendCounts(sent: 10_000)))
    }
    let loadTime = try await seconds {
        var loaded = 0
        while loaded < reportReceipts {
            let chunk = receipts(min(10_000, reportReceipts - loaded), pushes: 1000, ids: false, offset: loaded)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for start in stride(from: 0, to: chunk.count, by: 1000) {
                    let slice = Array(chunk[start..<min(start + 1000, chunk.count)])
                    group.addTask { _ = try await reportStore.ingest(slice) }
                }
                try await group.waitForAll()
            }
            loaded += chunk.count
        }
    }
    print(String(format: "loaded in %.1f s (%.0f receipts/s)", loadTime, Double(reportReceipts) / loadTime))
}
reportStore.close()
try await ReportRounds(
    store: reportStore, rounds: reportRounds, iterations: reportIterations,
    seriesIterations: option("--series-iterations", reportIterations), now: now
).run(receipts: reportReceipts)
