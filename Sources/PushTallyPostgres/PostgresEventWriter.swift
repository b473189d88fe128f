import Logging
import PostgresNIO
import PushTallyCore

extension StoredEvent {
    /// Stored events read back (by ``StoredEvent/countedColumns``) with their duplicate flags, for counting.
    static func counted(_ rows: [PostgresRow]) throws -> [(StoredEvent, Bool)] {
        try rows.decode((String, Int, String, Int64, Int64, Bool, String?, String?, Int64?, String?, Int?, String?).self).map {
            pushID, kind, action, receivedAt, eventTime, duplicate, appVersion, osVersion, value, currency, code, credited in
            var event = StoredEvent(
                pushID: pushID, kind: EventKind(rawValue: kind) ?? .display, action: action, receivedAt: receivedAt,
                eventTime: eventTime, duplicate: duplicate, appVersion: appVersion, osVersion: osVersion)
            (event.valueMicros, event.currency) = (value, currency)
            event.attribution = Attribution(code: code, pushID: credited)
            return (event, duplicate)
        }
    }
}

/// The statements of one group commit on PostgreSQL: a handful per transaction, whatever its size.
///
/// Every transaction touches shared rows in one order (push then device locks, dedupe keys, credits moved on
/// stored events, raw events, then each rollup table) and each table's rows sorted by key, so collectors
/// committing at once wait for each other instead of deadlocking; the store retries the rare deadlock PostgreSQL still reports.
enum PostgresEventWriter {
    /// Stores `events` with their dedupe keys and rollups (in rollup shard `shard`), attributing the sessions
    /// and conversions of the devices they touch; returns, per event, whether it was a retry. A handful of
    /// round trips whatever the number of events: begin, push and device locks, dedupe keys, `sent_at`, the
    /// attribution probe, credits moved on stored rows (each only when needed), raw rows and every rollup
    /// upsert as one statement, commit.
    static func store(
        _ events: [StoredEvent], maturityWindow: Int64, attributionWindows: AttributionWindows, shard: Int64,
        subscriptions: SubscriptionCache? = nil, memory: OneStatementState? = nil, actions: ActionFold,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> [Bool] {
        guard !events.isEmpty else { return [] }
        // Every device that may be touched, retries included (only known after the dedupe keys): a few spare locks.
        let devices = events.lazy.filter { !($0.kind == .action && $0.action == StandardAction.dismiss) }.compactMap(\.deviceID)
        try await PushLocks.lock(
            Set(events.lazy.filter { $0.kind == .display }.map(\.pushID)), mode: .shared, devices: Set(devices),
            on: connection, logger: logger)
        let keys = events.map { event in event.dedupeKeys.map { DedupeKey(pushID: event.pushID, key: $0) } }
        var fresh = try await insertDedupeKeys(keys, on: connection, logger: logger)
        let duplicates = zip(events, keys).map { event, keys in
            // The first event to carry a key that this transaction inserted is new; any other is a retry,
            // exactly as when the keys are inserted one event at a time.
            var duplicate = false
            for key in keys where fresh.remove(key) == nil {
                duplicate = true
            }
            return event.duplicate ?? duplicate
        }
        let counted = Array(zip(events, duplicates))
        var counter = try await count(
            counted, maturityWindow: maturityWindow, actions: actions, memory: memory, on: connection, logger: logger)
        var touches = AttributionTouches()
        for (event, duplicate) in counted {
            touches.add(
                kind: event.kind, action: event.action, deviceID: event.deviceID, eventTime: event.eventTime, duplicate: duplicate)
        }
        let credits = try await PostgresAttribution.attribute(
            touches, events: counted, windows: attributionWindows, counter: &counter, on: connection, logger: logger)
        let rollups = PostgresRollupWriter.parts(counter.accumulator, to: .rollups, shard: shard)
        var outboxRows: [ValuesPart] = []
        if let outbox = try await subscriptions?.outbox(on: connection, logger: logger), outbox.wantsEvents {
            let fresh = counted.filter { !$0.1 && $0.0.kind.namesPush }.map(\.0)
            let labels = try await PostgresOutbox.labels(Array(Set(fresh.map(\.pushID))), on: connection, logger: logger)
            let rows = outbox.rows(forEvents: fresh, labels: { labels[$0] })
            if let receivedAt = events.first?.receivedAt { outboxRows = [PostgresOutbox.part(rows, at: receivedAt)] }
        }
        for query in SQLBuilder.combined(outboxRows + rawRows(counted, credits: credits) + rollups) {
            try await connection.run(query, logger: logger)
        }
        return duplicates
    }

    /// The raw rows: displays and actions by their own columns; sessions and conversions by theirs, credit
    /// included (receipts do not pay for the columns they never fill).
    static func rawRows(_ counted: [(StoredEvent, Bool)], credits: [Int: Attribution]) -> [ValuesPart] {
        let receipts = counted.filter { $0.0.kind.namesPush }
        let outcomes = counted.enumerated().filter { !$0.element.0.kind.namesPush }.map { ($0.element, credits[$0.offset]) }
        return [
            ValuesPart(
                receipts, columns: 11,
                head: """
                    INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate,
                                        device_id, receipt_id, platform, app_version, os_version)
                    """,
                bind: { row, sql in
                    let (event, duplicate) = row
                    return [
                        sql.bind(event.pushID), sql.bind(Int64(event.kind.rawValue)), sql.bind(event.action),
                        sql.bind(event.receivedAt), sql.bind(event.eventTime), sql.bind(duplicate), sql.bind(event.deviceID),
                        sql.bind(event.receiptID), sql.bind(event.platform), sql.bind(event.appVersion), sql.bind(event.osVersion),
                    ]
                }),
            ValuesPart(
                outcomes, columns: 17,
                head: "INSERT INTO events (\(StoredEvent.storedColumns), attribution, attributed_push)",
                bind: { row, sql in
                    let ((event, duplicate), credit) = row
                    return [
                        sql.bind(""), sql.bind(Int64(event.kind.rawValue)), sql.bind(""), sql.bind(event.receivedAt),
                        sql.bind(event.eventTime), sql.bind(duplicate), sql.bind(event.deviceID), sql.bind(event.receiptID),
                        sql.bind(event.platform), sql.bind(event.appVersion), sql.bind(event.osVersion), sql.bind(event.app),
                        sql.bind(event.name), sql.bind(event.valueMicros), sql.bind(event.currency),
                        sql.bind(credit.map { Int64($0.code) }), sql.bind(credit?.pushID),
                    ]
                }),
        ]
    }

    /// A dedupe key compared byte for byte, as the database compares it: Swift's `String` equality would
    /// make canonically equivalent ids (NFC and NFD) one key where the database stores two.
    struct DedupeKey: Hashable {
        var pushID: String
        var key: String

        static func == (a: DedupeKey, b: DedupeKey) -> Bool {
            a.pushID.utf8.elementsEqual(b.pushID.utf8) && a.key.utf8.elementsEqual(b.key.utf8)
        }

        func hash(into hasher: inout Hasher) {
            for byte in pushID.utf8 { hasher.combine(byte) }
            hasher.combine(0xFF as UInt8)
            for byte in key.utf8 { hasher.combine(byte) }
        }
    }

    /// Inserts every event's keys, in key order, and returns those that were new.
    private static func insertDedupeKeys(
        _ eventKeys: [[DedupeKey]], on connection: PostgresConnection, logger: Logger
    ) async throws -> Set<DedupeKey> {
        let keys = Set(eventKeys.joined())
        guard !keys.isEmpty else { return [] }
        let sorted = keys.sorted {
            $0.pushID.utf8.elementsEqual($1.pushID.utf8)
                ? $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) : $0.pushID.utf8.lexicographicallyPrecedes($1.pushID.utf8)
        }
        let rows = try await connection.run(
            """
            INSERT INTO dedupe (push_id, key)
            SELECT * FROM unnest(\(sorted.map(\.pushID))::text[], \(sorted.map(\.key))::text[]) ORDER BY 1, 2
            ON CONFLICT DO NOTHING RETURNING push_id, key
            """, logger: logger)
        var inserted = Set<DedupeKey>()
        for (pushID, key) in try rows.decode((String, String).self) {
            inserted.insert(DedupeKey(pushID: pushID, key: key))
        }
        return inserted
    }

    /// Counts stored events (``RollupCounter``); their pushes' `sent_at` is read in one query first, under the
    /// push locks, so a registration is either wholly before or after. `memory` keeps what was read for the
    /// one-statement commits that follow.
    static func count(
        _ events: [(StoredEvent, Bool)], maturityWindow: Int64, actions: ActionFold, memory: OneStatementState? = nil,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> RollupCounter {
        let timed = Array(RollupCounter.timedPushIDs(events))
        let sentAt = try await sentAtByPush(timed, on: connection, logger: logger)
        memory?.remember(timed, sentAt: sentAt)
        var counter = RollupCounter(maturityWindow: maturityWindow, actions: actions)
        for (event, duplicate) in events {
            counter.add(event, duplicate: duplicate) { sentAt[$0] }
        }
        return counter
    }

    static func sentAtByPush(_ pushIDs: [String], on connection: PostgresConnection, logger: Logger) async throws -> [String: Int64] {
        guard !pushIDs.isEmpty else { return [:] }
        var sentAt: [String: Int64] = [:]
        let rows = try await connection.run(
            "SELECT push_id, sent_at FROM pushes WHERE push_id = ANY(\(pushIDs)::text[]) AND sent_at IS NOT NULL",
            logger: logger)
        for (pushID, time) in try rows.decode((String, Int64).self) {
            sentAt[pushID] = time
        }
        return sentAt
    }
}
