import GRDB

/// Which set of aggregate tables a count goes to: the live rollups, or the ledger of pruned events.
package enum RollupTarget {
    case rollups
    case ledger

    package var push: String { self == .rollups ? "rollup_push" : "ledger_push" }
    package var bucket: String { self == .rollups ? "rollup_bucket" : "ledger_bucket" }
    package var timing: String { self == .rollups ? "rollup_timing" : "ledger_timing" }
    package var pending: String { self == .rollups ? "pending_timing" : "ledger_pending" }
    package var version: String { self == .rollups ? "rollup_version" : "ledger_version" }
}

/// Counts stored events into rollup deltas: what ingest, pruning and rebuilds share, so all three agree.
struct RollupCounter {
    let maturityWindow: Int64
    private var accumulator = RollupAccumulator()
    private var sentAtByPush: [String: Int64?] = [:]

    init(maturityWindow: Int64) {
        self.maturityWindow = maturityWindow
    }

    var isEmpty: Bool { accumulator.pushes.isEmpty }

    /// Counts one stored event; unique displays are also timed against their push's `sent_at`.
    mutating func add(
        pushID: String, kind: EventKind, action: String, eventTime: Int64, receivedAt: Int64, duplicate: Bool,
        appVersion: String?, osVersion: String?, in db: Database
    ) throws {
        accumulator.add(
            pushID: pushID, kind: kind, action: action, eventTime: eventTime, duplicate: duplicate, appVersion: appVersion,
            osVersion: osVersion)
        guard kind == .display, !duplicate else { return }
        // One lookup per distinct push per transaction, not per event.
        let sentAt: Int64?
        if let cached = sentAtByPush[pushID] {
            sentAt = cached
        } else {
            let statement = try db.cachedStatement(sql: "SELECT sent_at FROM pushes WHERE push_id = ?")
            sentAt = try Int64?.fetchOne(statement, arguments: [pushID]) ?? nil
            sentAtByPush[pushID] = .some(sentAt)
        }
        accumulator.addTiming(
            pushID: pushID, eventTime: eventTime, receivedAt: receivedAt, sentAt: sentAt, maturityWindow: maturityWindow)
    }

    /// Adds the counted deltas to `target`'s tables with one upsert per distinct key.
    func write(to target: RollupTarget, in db: Database) throws {
        let pushStatement = try db.cachedStatement(sql: """
            INSERT INTO \(target.push) (push_id, kind, action, total, duplicates, first_time, last_time, late)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (push_id, kind, action) DO UPDATE SET
                total = total + excluded.total,
                duplicates = duplicates + excluded.duplicates,
                first_time = min(first_time, excluded.first_time),
                last_time = max(last_time, excluded.last_time),
                late = late + excluded.late
            """)
        for (key, delta) in accumulator.pushes {
            try pushStatement.execute(arguments: [
                key.pushID, key.kind.rawValue, key.action, delta.total, delta.duplicates, delta.firstTime,
                delta.lastTime, delta.late,
            ])
        }
        let bucketStatement = try db.cachedStatement(sql: """
            INSERT INTO \(target.bucket) (push_id, bucket, kind, action, total, duplicates)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (push_id, bucket, kind, action) DO UPDATE SET
                total = total + excluded.total,
                duplicates = duplicates + excluded.duplicates
            """)
        for (key, delta) in accumulator.buckets {
            try bucketStatement.execute(arguments: [
                key.push.pushID, key.bucket, key.push.kind.rawValue, key.push.action, delta.total, delta.duplicates,
            ])
        }
        for (pushID, histogram) in accumulator.latency {
            try TimingTable.add(histogram, pushID: pushID, to: target.timing, in: db)
        }
        let versionStatement = try db.cachedStatement(sql: """
            INSERT INTO \(target.version) (push_id, dimension, version, kind, action, total, duplicates)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (push_id, dimension, version, kind, action) DO UPDATE SET
                total = total + excluded.total,
                duplicates = duplicates + excluded.duplicates
            """)
        for (key, delta) in accumulator.versions {
            try versionStatement.execute(arguments: [
                key.push.pushID, key.dimension, key.version, key.push.kind.rawValue, key.push.action, delta.total,
                delta.duplicates,
            ])
        }
        let pendingStatement = try db.cachedStatement(sql: """
            INSERT INTO \(target.pending) (push_id, clock, second, count) VALUES (?, ?, ?, ?)
            ON CONFLICT (push_id, clock, second) DO UPDATE SET count = count + excluded.count
            """)
        for (key, count) in accumulator.pending {
            try pendingStatement.execute(arguments: [key.pushID, key.clock, key.second, count])
        }
    }
}
