import GRDB
import PushTallyCore

/// The dedupe keys of one group commit, inserted in key order rather than arrival order.
///
/// Receipt ids and keyed device ids are random, so in arrival order each key lands on a random leaf of the
/// dedupe B-tree. Once the tree outgrows the writer's page cache, a leaf dirtied early in a commit was spilled
/// before the next key for it came, and was read and written again. In key order each leaf is visited once per
/// commit (with device and receipt ids, a commit's cost is mostly those page round trips).
package enum DedupeWriter {
    /// Stores every key of every event and returns, per batch, whether each event was a recognised retry: an
    /// event is one when any of its keys was stored before it, by an earlier commit or an earlier event of
    /// this commit. Keys equal to each other keep commit order, so that rule holds as in arrival order.
    package static func duplicates(in batches: [[IncomingEvent]], db: Database) throws -> [[Bool]] {
        var flags = batches.map { [Bool](repeating: false, count: $0.count) }
        var keys: [Key] = []
        for (batchIndex, batch) in batches.enumerated() {
            for (eventIndex, event) in batch.enumerated() where event.receiptID != nil || event.deviceID != nil {
                for key in DedupeKeys.of(event) {
                    keys.append(Key(pushID: event.pushID, key: key, batch: batchIndex, event: eventIndex))
                }
            }
        }
        guard !keys.isEmpty else { return flags }
        keys.sort()
        let insertKey = try BoundStatement(db, sql: "INSERT INTO dedupe (push_id, key) VALUES (?, ?) ON CONFLICT DO NOTHING")
        for key in keys {
            insertKey.bind(1, key.pushID)
            insertKey.bind(2, key.key)
            try insertKey.execute()
            if db.changesCount == 0 { flags[key.batch][key.event] = true }
        }
        return flags
    }

    /// One key of one event, ordered as the dedupe primary key (push, key), then by position in the commit.
    private struct Key: Comparable {
        var pushID: String
        var key: String
        var batch: Int
        var event: Int

        static func < (lhs: Key, rhs: Key) -> Bool {
            // Bytes, as SQLite's BINARY collation orders them (String's `<` would normalise Unicode first).
            if lhs.pushID != rhs.pushID { return lhs.pushID.utf8.lexicographicallyPrecedes(rhs.pushID.utf8) }
            if lhs.key != rhs.key { return lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8) }
            return (lhs.batch, lhs.event) < (rhs.batch, rhs.event)
        }
    }
}
