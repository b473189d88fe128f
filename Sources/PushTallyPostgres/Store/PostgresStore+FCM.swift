import PostgresNIO
import PushTallyCore

extension PostgresStore: FCMDeliveryStore {
    /// Stores FCM export rows in transactions of ``FCMImportPlan/rowsPerTransaction`` rows (``FCMImportPlan``
    /// decides what they add), many rows a statement. A key another collector is inserting at once waits for its
    /// transaction, then counts as held: nothing twice.
    public func importFCM(_ rows: [FCMExportRow]) async throws -> FCMImportSummary {
        let now = configuration.clock()
        guard let hasher = deviceHasher else {
            throw StoreError.misconfigured("importing FCM data needs the device secret (--device-secret)")
        }
        var summary = FCMImportSummary()
        // In key order, so two imports of overlapping files wait on each other instead of deadlocking.
        for chunk in FCMImportPlan.chunks(FCMImportPlan.ordered(rows)) {
            summary.add(try await importFCM(chunk, now: now, hasher: hasher))
        }
        return summary
    }

    private func importFCM(_ rows: ArraySlice<FCMExportRow>, now: Int64, hasher: DeviceHasher) async throws -> FCMImportSummary {
        let logger = logger
        return try await transaction { connection in
            let keyed = rows.map { ($0, FCMDeliverySchema.instanceKey($0.instanceID, hasher: hasher)) }
            var new = [String: Int]()
            for query in SQLBuilder.values(
                keyed, columns: 7,
                head: FCMDeliverySchema.insertHead, tail: FCMDeliverySchema.insertTail,
                bind: { entry, sql in
                    let (row, key) = entry
                    return [
                        sql.bind(row.messageID), sql.bind(key), sql.bind(row.event.rawValue), sql.bind(row.pushID ?? ""),
                        sql.bind(row.platform), sql.bind(row.eventMillis), sql.bind(now),
                    ]
                })
            {
                for row in try await connection.run(query, logger: logger) {
                    let (message, key, event) = try row.decode((String, String, String).self)
                    new[FCMDeliverySchema.keyText(message, key, event), default: 0] += 1
                }
            }
            var plan = FCMImportPlan()
            for (row, key) in keyed {
                // A key twice in one file is inserted once: its first row is the new one.
                let text = FCMDeliverySchema.keyText(row.messageID, key, row.event.rawValue)
                let isNew = (new[text] ?? 0) > 0
                if isNew { new[text]! -= 1 }
                plan.add(row, isNew: isNew)
            }
            var registered = Set<String>()
            let ids = plan.pushIDs
            if !ids.isEmpty {
                registered.formUnion(try await connection.fetch(Queries.SelectRegisteredPushes(pushIDs: ids), logger: logger))
            }
            plan.settleOrphans(registered: registered)
            for query in SQLBuilder.values(
                plan.rows, columns: 4, head: FCMDeliverySchema.upsertHead, tail: FCMDeliverySchema.upsertTail,
                bind: { entry, sql in
                    [sql.bind(entry.key.pushID), sql.bind(entry.key.platform), sql.bind(entry.key.event), sql.bind(entry.count)]
                })
            {
                try await connection.run(query, logger: logger)
            }
            return plan.summary
        }
    }
}
