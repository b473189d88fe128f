import Foundation
import GRDB
import PushTallyCore
import PushTallySQLite

/// Batch ingest against a bare GRDB loop doing the same raw rows, dedupe keys and per-push and per-bucket
/// upserts, measured in rounds: each round runs both sides back to back on fresh files, the order alternating,
/// so a machine that drifts during the run moves both sides of a round's ratio alike. The figures are medians
/// (rates of the rounds, and the per-round ratios).
struct IngestRounds {
    let count: Int
    let rounds: Int
    let directory: URL
    let sqliteCacheMegabytes: Int
    /// `store` or `bare` to run one side alone (for a profiler); both when `nil`.
    let only: String?

    func run(ids: Bool) async throws {
        let events = receipts(count, pushes: 1000, ids: ids)
        let batches = stride(from: 0, to: events.count, by: 1000).map { Array(events[$0..<min($0 + 1000, events.count)]) }
        let label = ids ? "with device_id + receipt_id" : "push_id only"
        var storeRates: [Double] = [], bareRates: [Double] = [], ratios: [Double] = []
        var storePath = ""
        for round in 1...rounds {
            let name = "\(ids)-\(round)"
            var storeTime = 1.0, bareTime = 1.0
            for side in round % 2 == 1 ? ["store", "bare"] : ["bare", "store"] where only == nil || only == side {
                if side == "store" {
                    // Only the last round's file is kept, for the bytes per receipt.
                    if !storePath.isEmpty { removeDatabase(storePath) }
                    (storeTime, storePath) = try await store(batches, name: name)
                } else {
                    bareTime = try await bare(batches, name: name)
                }
            }
            let (storeRate, bareRate) = (Double(count) / storeTime, Double(count) / bareTime)
            storeRates.append(storeRate)
            bareRates.append(bareRate)
            ratios.append(storeRate / bareRate)
            if rounds > 1 {
                print(String(format: "round %d, %@: store %.0f, bare %.0f receipts/s, ratio %.2f", round, label, storeRate, bareRate, storeRate / bareRate))
            }
        }
        let (storeRate, bareRate, ratio) = (median(storeRates), median(bareRates), median(ratios))
        print(String(format: "%@: PushTally store %.0f receipts/s, bare GRDB insert+dedupe keys+upserts %.0f receipts/s, ratio %.2f",
            label, storeRate, bareRate, ratio))
        figure("in-process store batches, \(label)", storeRate, "receipts/s")
        figure("bare GRDB insert, \(label)", bareRate, "receipts/s")
        figure("store / bare GRDB insert, \(label)", ratio, "x", ">=", 0.9)
        guard only != "bare" else { return }
        let storeBytes = try bytesOnDisk(storePath)
        let rawBytes = try rawTableBytes(storePath)
        print(String(format: "%@: %.1f bytes per receipt in the raw events table; %.1f per receipt for the whole database (raw rows, dedupe keys, rollups)",
            label, Double(rawBytes) / Double(count), Double(storeBytes) / Double(count)))
    }

    /// The store's batches from 4 concurrent submitters; the seconds they took and the database's path.
    private func store(_ batches: [[IncomingEvent]], name: String) async throws -> (Double, String) {
        let store = try SQLiteStore(
            path: directory.appendingPathComponent("ingest-\(name).sqlite").path,
            configuration: StoreConfiguration(sqliteCacheMegabytes: sqliteCacheMegabytes))
        // Registered first, as backends do at send time: receipts of a push with a sent_at are timed at once
        // (an orphan's wait in pending_timing until its registration, which is the rarer, costlier case).
        for push in 0..<1000 {
            try await store.register(PushRegistration(
                pushID: "push-\(push)", campaign: "campaign-\(push % 50)", sentAtMillis: sentAt, counts: SendCounts(sent: 10_000)))
        }
        let time = try await seconds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for index in stride(from: worker, to: batches.count, by: 4) { _ = try await store.ingest(batches[index]) }
                    }
                }
                try await group.waitForAll()
            }
        }
        store.close()
        return (time, store.path)
    }

    /// The bare baseline: the same raw rows and per-push / per-bucket upserts, one transaction per batch.
    private func bare(_ batches: [[IncomingEvent]], name: String) async throws -> Double {
        let bare = try DatabasePool(path: directory.appendingPathComponent("bare-\(name).sqlite").path)
        try await bare.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: """
                CREATE TABLE events (push_id TEXT NOT NULL, kind INTEGER NOT NULL, action TEXT NOT NULL, received_at INTEGER NOT NULL,
                    event_time INTEGER NOT NULL, duplicate INTEGER NOT NULL, device_id TEXT, receipt_id TEXT);
                CREATE TABLE dedupe (push_id TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (push_id, key)) WITHOUT ROWID;
                CREATE TABLE rollup_push (push_id TEXT NOT NULL, total INTEGER NOT NULL, PRIMARY KEY (push_id)) WITHOUT ROWID;
                CREATE TABLE rollup_bucket (push_id TEXT NOT NULL, bucket INTEGER NOT NULL, total INTEGER NOT NULL,
                    PRIMARY KEY (push_id, bucket)) WITHOUT ROWID;
                """)
        }
        defer {
            try? bare.close()
            removeDatabase(bare.path)
        }
        return try await seconds {
            for batch in batches {
                try await bare.write { db in
                    let insert = try db.cachedStatement(sql: "INSERT INTO events VALUES (?, 0, '', ?, ?, 0, ?, ?)")
                    // The same dedupe keys as the store: what makes a retry count once is part of the work.
                    let dedupe = try db.cachedStatement(sql: "INSERT INTO dedupe VALUES (?, ?) ON CONFLICT DO NOTHING")
                    var perPush: [String: Int] = [:]
                    var perBucket: [String: Int] = [:]
                    for event in batch {
                        if let receipt = event.receiptID { try dedupe.execute(arguments: [event.pushID, "r" + receipt]) }
                        if let device = event.deviceID { try dedupe.execute(arguments: [event.pushID, "i" + device]) }
                        let time = event.deviceTimeMillis ?? now
                        try insert.execute(arguments: [event.pushID, now, time, event.deviceID, event.receiptID])
                        perPush[event.pushID, default: 0] += 1
                        perBucket["\(event.pushID)|\(time / 900_000)", default: 0] += 1
                    }
                    let pushUpsert = try db.cachedStatement(sql: "INSERT INTO rollup_push VALUES (?, ?) ON CONFLICT DO UPDATE SET total = total + excluded.total")
                    for (push, count) in perPush { try pushUpsert.execute(arguments: [push, count]) }
                    let bucketUpsert = try db.cachedStatement(sql: "INSERT INTO rollup_bucket VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET total = total + excluded.total")
                    for (key, count) in perBucket {
                        let parts = key.split(separator: "|")
                        try bucketUpsert.execute(arguments: [String(parts[0]), Int64(parts[1])!, count])
                    }
                }
            }
        }
    }
}

/// Deletes a database file with its log and shared-memory files.
func removeDatabase(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
