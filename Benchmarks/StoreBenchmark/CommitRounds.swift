import Foundation
import GRDB
import PushTallyCore
import PushTallySQLite

/// The seed request's group commit alone, on one thread: the CPU a commit of `size` single receipts
/// (`push_id=123`, one event a request) costs PushTally's store against the commit the bare durable baseline runs
/// (`Benchmarks/BareDurableBaseline`: a raw row per receipt and one per-push upsert, through GRDB), both with
/// `synchronous=FULL` on fresh files, each measured once its write-ahead log has stopped growing, in rounds whose
/// order alternates.
///
/// The writer thread is the one serial thread of a collector under the seed request, and its CPU a commit is
/// what separates PushTally from the baseline there (`scripts/bench-threads`); measured here by the thread's own
/// CPU clock, without HTTP, event loops or a load generator sharing the cores, it moves far less from run to run
/// than requests a second do. What it leaves out: handing the commit's requests over and answering them.
struct CommitRounds {
    let commits: Int
    let size: Int
    let rounds: Int
    let directory: URL

    func run() throws {
        var store: [Double] = [], bare: [Double] = [], ratios: [Double] = []
        for round in 1...rounds {
            var (storeMicros, bareMicros) = (0.0, 0.0)
            for side in round % 2 == 1 ? ["store", "bare"] : ["bare", "store"] {
                if side == "store" { storeMicros = try storeCommits(round) } else { bareMicros = try bareCommits(round) }
            }
            store.append(storeMicros)
            bare.append(bareMicros)
            ratios.append(storeMicros / bareMicros)
            print(String(format: "round %d: store %.1f, bare %.1f us of CPU a commit, ratio %.2f", round, storeMicros, bareMicros, storeMicros / bareMicros))
        }
        let label = "a commit of \(size) seed receipts"
        print(String(format: "%@: PushTally store %.1f us of CPU (%.2f a receipt), bare durable baseline's commit %.1f us (%.2f), ratio %.2f [%.2f..%.2f]",
            label, median(store), median(store) / Double(size), median(bare), median(bare) / Double(size), median(ratios),
            ratios.min() ?? 0, ratios.max() ?? 0))
        figure("writer CPU, \(label): PushTally store", median(store), "us")
        figure("writer CPU, \(label): bare durable baseline", median(bare), "us")
        figure("writer CPU, \(label): store / baseline", median(ratios), "x")
    }

    /// The receipts of one commit, as the form `push_id=123` arrives: one event a request.
    private var batches: [[IncomingEvent]] {
        (0..<size).map { _ in [IncomingEvent(pushID: "123", kind: .display)] }
    }

    /// CPU µs a commit of the store's group commit, once warm (``measure(logOf:_:)``).
    private func storeCommits(_ round: Int) throws -> Double {
        let path = directory.appendingPathComponent("commit-store-\(round).sqlite").path
        let store = try SQLiteStore(path: path)
        defer {
            store.close()
            removeDatabase(path)
        }
        let batches = batches
        return try measure(logOf: path) { _ = try store.commitOnThisThread(batches) }
    }

    /// CPU µs a commit of the bare durable baseline's writer body, once warm.
    private func bareCommits(_ round: Int) throws -> Double {
        let path = directory.appendingPathComponent("commit-bare-\(round).sqlite").path
        let pool = try DatabasePool(path: path)
        defer { removeDatabase(path) }
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: """
                CREATE TABLE events (push_id TEXT NOT NULL, received_at INTEGER NOT NULL);
                CREATE TABLE totals (push_id TEXT PRIMARY KEY, total INTEGER NOT NULL) WITHOUT ROWID;
                """)
        }
        let pushIDs = batches.map { $0[0].pushID }
        return try measure(logOf: path) {
            // As the baseline's writer runs it, statement for statement.
            try pool.write { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO events (push_id, received_at) VALUES (?, ?)")
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                var perPush: [String: Int] = [:]
                for pushID in pushIDs {
                    try insert.execute(arguments: [pushID, now])
                    perPush[pushID, default: 0] += 1
                }
                let upsert = try db.cachedStatement(sql: """
                    INSERT INTO totals (push_id, total) VALUES (?, ?)
                    ON CONFLICT (push_id) DO UPDATE SET total = total + excluded.total
                    """)
                for (pushID, count) in perPush { try upsert.execute(arguments: [pushID, count]) }
            }
        }
    }

    /// Runs `commit` `commits` times once warm; the thread's CPU µs a commit.
    ///
    /// Warm means the write-ahead log of the database at `path` has stopped growing: while it grows, every commit's
    /// `fdatasync` also writes the file's new size, which a log that has wrapped (checkpointed and started over
    /// in the space it has) no longer does. PushTally's log grows to 64 MB before it first wraps (about 2,700
    /// seed commits), the baseline's to SQLite's 4 MB (about 430), so measuring from a fresh file would charge
    /// PushTally for a start-up that a running collector is past.
    private func measure(logOf path: String, _ commit: () throws -> Void) throws -> Double {
        var size = -1
        var warmUp = 0
        while warmUp < max(100, commits / 10) || (logSize(path) != size && warmUp < 50_000) {
            size = logSize(path)
            for _ in 0..<100 { try commit() }
            warmUp += 100
        }
        let start = threadCPUNanoseconds()
        for _ in 0..<commits { try commit() }
        return Double(threadCPUNanoseconds() - start) / 1_000 / Double(commits)
    }
}

/// The size of the write-ahead log of the database at `path`, in bytes (0 when there is none).
private func logSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0
}

/// The calling thread's CPU time (user and system), in nanoseconds.
func threadCPUNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}
