import GRDB

/// The statements of one group commit: raw rows, dedupe keys and rollups, all in the caller's transaction.
package enum EventWriter {
    /// Stores every event of every batch and returns, per batch, whether each event was a recognised retry.
    static func commit(
        _ batches: [[IncomingEvent]], receivedAt: Int64, maturityWindow: Int64, in db: Database
    ) throws -> [[Bool]] {
        let insertEvent = try db.cachedStatement(sql: """
            INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate,
                                device_id, receipt_id, platform, app_version, os_version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertKey = try db.cachedStatement(
            sql: "INSERT INTO dedupe (push_id, key) VALUES (?, ?) ON CONFLICT DO NOTHING")
        var rollups = RollupCounter(maturityWindow: maturityWindow)
        var results: [[Bool]] = []
        results.reserveCapacity(batches.count)
        for batch in batches {
            var flags: [Bool] = []
            flags.reserveCapacity(batch.count)
            for event in batch {
                var duplicate = false
                // Every key is inserted, not just the first that matches, so a later retry that carries
                // only one of the ids is still recognised.
                for key in dedupeKeys(event) {
                    try insertKey.execute(arguments: [event.pushID, key])
                    if db.changesCount == 0 { duplicate = true }
                }
                let eventTime = EventTime.clamp(deviceTimeMillis: event.deviceTimeMillis, receivedAtMillis: receivedAt)
                try insertEvent.execute(arguments: [
                    event.pushID, event.kind.rawValue, event.action, receivedAt, eventTime, duplicate,
                    event.deviceID, event.receiptID, event.platform, event.appVersion, event.osVersion,
                ])
                try rollups.add(
                    pushID: event.pushID, kind: event.kind, action: event.action, eventTime: eventTime,
                    receivedAt: receivedAt, duplicate: duplicate, appVersion: event.appVersion, osVersion: event.osVersion,
                    in: db)
                flags.append(duplicate)
            }
            results.append(flags)
        }
        try rollups.write(to: .rollups, in: db)
        return results
    }

    /// Keys that identify a retry: the same `receipt_id`, or the same device, for the same push and kind.
    /// The unit separator cannot occur in a validated field, so keys of different shapes never collide.
    package static func dedupeKeys(_ event: IncomingEvent) -> [String] {
        let scope = event.kind == .display ? "d" : "a\u{1F}\(event.action)"
        var keys: [String] = []
        if let receipt = event.receiptID { keys.append("\(scope)\u{1F}r\u{1F}\(receipt)") }
        if let device = event.deviceID { keys.append("\(scope)\u{1F}i\u{1F}\(device)") }
        return keys
    }
}

extension EventWriter {
    /// Moves a push's pending timing into its latency histogram and late count, once `sent_at` is known,
    /// in the rollups and in the ledger alike (pruned receipts may be waiting too).
    static func settleTiming(pushID: String, sentAt: Int64, maturityWindow: Int64, in db: Database) throws {
        for target in [RollupTarget.rollups, .ledger] {
            try settleTiming(pushID: pushID, sentAt: sentAt, maturityWindow: maturityWindow, target: target, in: db)
        }
    }

    private static func settleTiming(
        pushID: String, sentAt: Int64, maturityWindow: Int64, target: RollupTarget, in db: Database
    ) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT clock, second, count FROM \(target.pending) WHERE push_id = ?", arguments: [pushID])
        guard !rows.isEmpty else { return }
        var histogram = LatencyHistogram()
        var late: Int64 = 0
        for row in rows {
            let second: Int64 = row["second"]
            let count: Int64 = row["count"]
            if row["clock"] as Int == 0 {
                histogram.add(bucket: LatencyHistogram.bucket(ofMillis: second * 1000 - sentAt), count: count)
            } else if second * 1000 > sentAt + maturityWindow {
                late += count
            }
        }
        if histogram.total > 0 { try TimingTable.add(histogram, pushID: pushID, to: target.timing, in: db) }
        try db.execute(
            sql: "UPDATE \(target.push) SET late = late + ? WHERE push_id = ? AND kind = ? AND action = ''",
            arguments: [late, pushID, EventKind.display.rawValue])
        try db.execute(sql: "DELETE FROM \(target.pending) WHERE push_id = ?", arguments: [pushID])
    }
}
