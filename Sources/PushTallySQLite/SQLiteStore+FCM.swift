import GRDB
import PushTallyCore

extension SQLiteStore: FCMDeliveryStore {
    /// Stores FCM export rows in transactions of ``FCMImportPlan/rowsPerTransaction`` rows (``FCMImportPlan``
    /// decides what they add), which ingest's commits take turns with.
    public func importFCM(_ rows: [FCMExportRow]) async throws -> FCMImportSummary {
        let now = configuration.clock()
        var summary = FCMImportSummary()
        for chunk in FCMImportPlan.chunks(rows) {
            summary.add(try await importFCM(chunk, now: now))
        }
        return summary
    }

    private func importFCM(_ rows: ArraySlice<FCMExportRow>, now: Int64) async throws -> FCMImportSummary {
        let hasher = deviceHasher
        return try await write { db in
            var plan = FCMImportPlan()
            let insert = try db.cachedStatement(sql: FCMDeliverySchema.insertAtPosition)
            // Each new row takes the next feed position; a key held already takes none.
            let first = try EventPositions.next(in: db)
            var position = first
            for row in rows {
                let key = FCMDeliverySchema.instanceKey(row.instanceID, hasher: hasher)
                let isNew = try Row.fetchOne(
                    insert,
                    arguments: [
                        row.messageID, key, row.event.rawValue, row.pushID ?? "", row.platform, row.eventMillis, now, position,
                    ]) != nil
                if isNew { position += 1 }
                plan.add(row, isNew: isNew)
            }
            if position > first { try EventPositions.raise(to: position - 1, in: db) }
            var registered = Set<String>()
            for start in stride(from: 0, to: plan.pushIDs.count, by: 500) {
                let ids = Array(plan.pushIDs[start..<min(start + 500, plan.pushIDs.count)])
                registered.formUnion(
                    try String.fetchAll(db, sql: FCMDeliverySchema.registered(ids.count) { _ in "?" }, arguments: StatementArguments(ids)))
            }
            plan.settleOrphans(registered: registered)
            let upsert = try db.cachedStatement(sql: FCMDeliverySchema.upsert { _ in "?" })
            for (key, count) in plan.rows {
                try upsert.execute(arguments: [key.pushID, key.platform, key.event, count])
            }
            return plan.summary
        }
    }
}
