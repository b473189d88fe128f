import GRDB
import PushTallyCore

/// The dedupe keys of one group commit, inserted in key order rather than arrival order.
///
/// Receipt ids and keyed device ids are random, so in arrival order each key lands on a random leaf of the
/// dedupe B-tree. Once the tree outgrows the writer's page cache, a leaf dirtied early in a commit was spilled
/// before the next key for it came, and was read and written again. In key order each leaf is visited once per
/// commit (with device and receipt ids, a commit's cost is mostly those page round trips). SQLite's alone:
/// PostgreSQL inserts a commit's keys in one sorted statement.
package enum DedupeWriter {
    /// Stores every key of every event and returns, for each key of each event (in ``CommitPlan``'s order),
    /// whether storing it was new. Keys equal to each other keep commit order, so the first of them is the new one.
    package static func newKeys(_ events: [StoredEvent], db: Database) throws -> [Bool] {
        var keys: [Key] = []
        for event in events where event.receiptID != nil || event.deviceID != nil {
            for key in event.dedupeKeys {
                keys.append(Key(pushID: event.pushID, key: key, position: keys.count))
            }
        }
        var flags = [Bool](repeating: true, count: keys.count)
        guard !keys.isEmpty else { return flags }
        keys.sort()
        let insertKey = try BoundStatement(db, sql: Queries.InsertDedupeKey.sql)
        for key in keys {
            insertKey.bind(1, key.pushID)
            insertKey.bind(2, key.key)
            try insertKey.execute()
            if db.changesCount == 0 { flags[key.position] = false }
        }
        return flags
    }

    /// One key of one event, ordered as the dedupe primary key (push, key), then by position in the commit.
    private struct Key: Comparable {
        var pushID: String
        var key: String
        var position: Int

        static func < (lhs: Key, rhs: Key) -> Bool {
            // Bytes, as SQLite's BINARY collation orders them (String's `<` would normalise Unicode first).
            if lhs.pushID != rhs.pushID { return lhs.pushID.utf8.lexicographicallyPrecedes(rhs.pushID.utf8) }
            if lhs.key != rhs.key { return lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8) }
            return lhs.position < rhs.position
        }
    }
}
