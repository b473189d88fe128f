import Foundation
import GRDB

extension SQLiteStore {
    /// Deletes raw events received before `cutoffMillis`, folding their counts into the ledger first, in
    /// transactions of `batchSize` so the writer is never held for long. Reports do not change.
    /// - Returns: the number of events pruned.
    @discardableResult
    public func prune(receivedBefore cutoffMillis: Int64, batchSize: Int = 5000) async throws -> Int {
        try await foldIntoLedger(where: "received_at < ?", arguments: [cutoffMillis], batchSize: batchSize)
    }

    /// Deletes every raw event of one device (by its keyed hash), folding their counts into the ledger.
    /// Rollup counts stay: they are aggregates that no longer name the device.
    @discardableResult
    public func forget(deviceID: String) async throws -> Int {
        let hashed = deviceHasher.hash(deviceID)
        let forgotten = try await foldIntoLedger(where: "device_id = ?", arguments: [hashed], batchSize: 5000)
        // An exact suffix match: LIKE would ignore case and read the hash's `_` as a wildcard.
        let suffix = "\u{1F}i\u{1F}\(hashed)"
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM dedupe WHERE substr(key, -?) = ?", arguments: [suffix.count, suffix])
        }
        return forgotten
    }

    private func foldIntoLedger(where condition: String, arguments: StatementArguments, batchSize: Int) async throws -> Int {
        let window = configuration.maturityWindowMillis
        var total = 0
        var afterRowID: Int64 = 0
        while true {
            let start = afterRowID
            let (count, lastRowID) = try await pool.write { db -> (Int, Int64) in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT rowid, push_id, kind, action, event_time, received_at, duplicate, app_version, os_version FROM events
                        WHERE rowid > ? AND \(condition) ORDER BY rowid LIMIT \(batchSize)
                        """,
                    arguments: [start] + arguments)
                guard let last = rows.last else { return (0, start) }
                var counter = RollupCounter(maturityWindow: window)
                for row in rows {
                    try counter.add(
                        pushID: row["push_id"], kind: EventKind(rawValue: row["kind"]) ?? .display, action: row["action"],
                        eventTime: row["event_time"], receivedAt: row["received_at"], duplicate: row["duplicate"],
                    appVersion: row["app_version"], osVersion: row["os_version"], in: db)
                }
                try counter.write(to: .ledger, in: db)
                let lastRowID: Int64 = last["rowid"]
                try db.execute(
                    sql: "DELETE FROM events WHERE rowid > ? AND rowid <= ? AND \(condition)",
                    arguments: [start, lastRowID] + arguments)
                return (rows.count, lastRowID)
            }
            total += count
            afterRowID = lastRowID
            if count < batchSize { return total }
        }
    }

    /// Recomputes every rollup from the ledger plus the raw events, in one transaction; the result equals
    /// what ingest maintained incrementally (a test holds it to that).
    public func rebuildRollups() async throws {
        let window = configuration.maturityWindowMillis
        try await pool.write { db in
            for target in ["rollup_push", "rollup_bucket", "rollup_timing", "pending_timing", "rollup_version"] {
                try db.execute(sql: "DELETE FROM \(target)")
            }
            try db.execute(sql: "INSERT INTO rollup_version SELECT * FROM ledger_version")
            try db.execute(sql: "INSERT INTO rollup_push SELECT push_id, kind, action, total, duplicates, first_time, last_time, late FROM ledger_push")
            try db.execute(sql: "INSERT INTO rollup_bucket SELECT * FROM ledger_bucket")
            try db.execute(sql: "INSERT INTO rollup_timing SELECT * FROM ledger_timing")
            try db.execute(sql: "INSERT INTO pending_timing SELECT * FROM ledger_pending")
            let events = try Row.fetchCursor(
                db,
                sql: """
                    SELECT push_id, kind, action, event_time, received_at, duplicate, app_version, os_version
                    FROM events ORDER BY rowid
                    """)
            var counter = RollupCounter(maturityWindow: window)
            var counted = 0
            while let row = try events.next() {
                try counter.add(
                    pushID: row["push_id"], kind: EventKind(rawValue: row["kind"]) ?? .display, action: row["action"],
                    eventTime: row["event_time"], receivedAt: row["received_at"], duplicate: row["duplicate"],
                    appVersion: row["app_version"], osVersion: row["os_version"], in: db)
                counted += 1
                // Bounded memory on big tables: flush the deltas every 100k events.
                if counted % 100_000 == 0 {
                    try counter.write(to: .rollups, in: db)
                    counter = RollupCounter(maturityWindow: window)
                }
            }
            try counter.write(to: .rollups, in: db)
        }
    }

    /// Writes a consistent copy of the database to `path` while the server keeps running (`VACUUM INTO`).
    public func backup(to path: String) async throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw FieldError("exists", "\(path) already exists; backups never overwrite", field: "path")
        }
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "VACUUM INTO ?", arguments: [path])
        }
    }

    /// Raw events still stored (not pruned).
    public func rawEventCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0 }
    }
}

extension SQLiteStore {
    /// Runs a read-only query and returns every value as text (integers in decimal, blobs in hex, NULL as
    /// `nil`): what tests and diagnostics compare across stores.
    package func textRows(_ sql: String) async throws -> [[String?]] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { value in
                    switch value.storage {
                    case .null: nil
                    case .int64(let integer): String(integer)
                    case .double(let double): String(double)
                    case .string(let string): string
                    case .blob(let data): data.map { String(format: "%02x", $0) }.joined()
                    }
                }
            }
        }
    }
}
