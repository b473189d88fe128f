/// Where FCM's delivery events are kept, on both engines: `fcm_deliveries`, one row per key (message, keyed
/// app instance, event), which makes a re-import count nothing twice and is never pruned (like dedupe keys);
/// and `rollup_fcm`, their counts per push, platform and event, which reports read. Rows without a label are
/// kept under push id `''`, which no report reads (as unattributed outcomes are).
package enum FCMDeliverySchema {
    /// The migration's statements, as they were released (a released migration keeps its DDL).
    package static func migration(dialect sql: SQLDialect) -> [String] {
        [
            """
            CREATE TABLE fcm_deliveries (
                message_id TEXT NOT NULL, instance_key TEXT NOT NULL, event TEXT NOT NULL, push_id TEXT NOT NULL,
                platform TEXT NOT NULL, event_time \(sql.integer), imported_at \(sql.integer) NOT NULL,
                PRIMARY KEY (message_id, instance_key, event))\(sql.withoutRowID)
            """,
            """
            CREATE TABLE rollup_fcm (
                push_id TEXT NOT NULL, platform TEXT NOT NULL, event TEXT NOT NULL, count \(sql.integer) NOT NULL,
                PRIMARY KEY (push_id, platform, event))\(sql.withoutRowID)
            """,
        ]
    }

    /// The insert of keys, before its rows: seven values a row (message id, instance key, event, push id,
    /// platform, event time, import time).
    package static let insertHead =
        "INSERT INTO fcm_deliveries (message_id, instance_key, event, push_id, platform, event_time, imported_at)"
    /// After the insert's rows: a key held already is left alone, and only new keys are answered.
    package static let insertTail =
        " ON CONFLICT (message_id, instance_key, event) DO NOTHING RETURNING message_id, instance_key, event"
    /// The upsert of counts, before its rows: four values a row (push id, platform, event, count).
    package static let upsertHead = "INSERT INTO rollup_fcm (push_id, platform, event, count)"
    /// After the upsert's rows: counts add to those held.
    package static let upsertTail = " ON CONFLICT (push_id, platform, event) DO UPDATE SET count = rollup_fcm.count + excluded.count"

    /// One row's insert (``insertHead`` and ``insertTail``).
    package static func insert(placeholder: (Int) -> String) -> String {
        "\(insertHead) VALUES (\((0..<7).map(placeholder).joined(separator: ", ")))\(insertTail)"
    }

    /// SQLite's insert of one row at a feed position (``FeedTablesSchema``): eight values, the position last.
    /// PostgreSQL's rows draw theirs.
    package static let insertAtPosition = """
        INSERT INTO fcm_deliveries (message_id, instance_key, event, push_id, platform, event_time, imported_at, id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)\(insertTail)
        """

    /// One count's upsert (``upsertHead`` and ``upsertTail``).
    package static func upsert(placeholder: (Int) -> String) -> String {
        "\(upsertHead) VALUES (\((0..<4).map(placeholder).joined(separator: ", ")))\(upsertTail)"
    }

    /// Which of some push ids are registered: one value per id.
    package static func registered(_ count: Int, placeholder: (Int) -> String) -> String {
        "SELECT push_id FROM pushes WHERE push_id IN (\((0..<count).map(placeholder).joined(separator: ", ")))"
    }

    /// One key as one text, for matching the keys an insert answered with (NUL cannot occur in any part).
    package static func keyText(_ messageID: String, _ instanceKey: String, _ event: String) -> String {
        messageID + "\u{0}" + instanceKey + "\u{0}" + event
    }

    /// What an instance id is stored as: the store's keyed hash, as device ids are; `''` for none.
    package static func instanceKey(_ instanceID: String?, hasher: DeviceHasher) -> String {
        instanceID.map(hasher.hash) ?? ""
    }
}

/// The counts one import adds, and its summary, planned once for both engines from which rows were new.
package struct FCMImportPlan: Sendable {
    package struct Key: Hashable, Sendable {
        package var pushID: String
        package var platform: String
        package var event: String
    }

    package private(set) var counts: [Key: Int64] = [:]
    package private(set) var summary = FCMImportSummary()
    private var labelled: [String: Int] = [:]

    package init() {}

    /// Notes one row read, and whether its key was new.
    package mutating func add(_ row: FCMExportRow, isNew: Bool) {
        summary.rows += 1
        guard isNew else {
            summary.duplicates += 1
            return
        }
        summary.stored += 1
        guard let pushID = row.pushID else {
            summary.unlabelled += 1
            return
        }
        labelled[pushID, default: 0] += 1
        counts[Key(pushID: pushID, platform: row.platform, event: row.event.rawValue), default: 0] += 1
    }

    /// The most rows one transaction of an import stores: a large file (hundreds of thousands of rows) is stored
    /// in turns with ingest's commits, never as one long transaction that receipts and `/healthz` wait behind.
    /// Each key is stored once whatever how often it comes, so an import cut short is finished by running it
    /// again.
    package static let rowsPerTransaction = 5_000

    /// `rows` in runs of at most ``rowsPerTransaction``, in their order.
    package static func chunks(_ rows: [FCMExportRow]) -> [ArraySlice<FCMExportRow>] {
        stride(from: 0, to: rows.count, by: rowsPerTransaction).map { rows[$0..<min($0 + rowsPerTransaction, rows.count)] }
    }

    /// `rows` in key order (message, instance, event).
    package static func ordered(_ rows: [FCMExportRow]) -> [FCMExportRow] {
        rows.sorted { ($0.messageID, $0.instanceID ?? "", $0.event.rawValue) < ($1.messageID, $1.instanceID ?? "", $1.event.rawValue) }
    }

    /// The push ids stored rows named, to look up which are registered.
    package var pushIDs: [String] { labelled.keys.sorted() }

    /// Counts the stored rows whose push is not among `registered` as orphans.
    package mutating func settleOrphans(registered: Set<String>) {
        summary.orphans = labelled.filter { !registered.contains($0.key) }.values.reduce(0, +)
    }

    /// The rollup upserts' rows in key order.
    package var rows: [(key: Key, count: Int64)] {
        counts.sorted { ($0.key.pushID, $0.key.platform, $0.key.event) < ($1.key.pushID, $1.key.platform, $1.key.event) }
            .map { ($0.key, $0.value) }
    }
}
