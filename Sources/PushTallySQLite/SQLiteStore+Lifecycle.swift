import Foundation
import GRDB
import PushTallyCore

extension SQLiteStore: StoreMaintenance, FileStore {
    /// Deletes raw events received before `cutoffMillis`, folding their counts into the ledger first, in
    /// transactions of `batchSize` so the writer is never held for long. Reports do not change.
    /// - Returns: the number of events pruned.
    @discardableResult
    public func prune(receivedBefore cutoffMillis: Int64, batchSize: Int = MaintenancePlan.batchSize) async throws -> Int {
        // Noted first: from now on, sessions and conversions whose windows reach the cutoff keep their credit.
        try await write { db in
            try SQLiteAttribution.notePruned(before: cutoffMillis, in: db)
            try db.run(Queries.PruneDeviceStates(before: cutoffMillis))
        }
        return try await foldIntoLedger(.receivedBefore(cutoffMillis), batchSize: batchSize)
    }

    /// Deletes every raw event of one device (by its keyed hash), folding their counts into the ledger, and
    /// its audience rows. Rollup counts stay: they are aggregates that no longer name the device.
    @discardableResult
    public func forget(deviceID: String) async throws -> Int {
        let hashed = deviceHasher.hash(deviceID)
        let forgotten = try await foldIntoLedger(.device(hashed), batchSize: MaintenancePlan.batchSize)
        let suffix = DedupeKeys.deviceSuffix(keyedDeviceID: hashed)
        try await write { db in
            try db.run(Queries.DeleteDeviceDedupeKeys(suffix: suffix))
            try db.run(Queries.DeleteDeviceAudience(deviceID: hashed))
            try db.run(Queries.DeleteDeviceState(deviceKey: hashed))
        }
        return forgotten
    }

    private func foldIntoLedger(_ scope: Queries.SelectEventsToFold.Scope, batchSize: Int) async throws -> Int {
        let window = configuration.maturityWindowMillis
        var total = 0
        var afterRowID: Int64 = 0
        while true {
            let start = afterRowID
            let (count, lastRowID) = try await write { db -> (Int, Int64) in
                let rows = try db.fetch(Queries.SelectEventsToFold(afterRow: start, scope: scope, limit: batchSize))
                guard let lastRowID = rows.last?.rowID else { return (0, start) }
                let sentAt = try SentAtLookup(db)
                let events = rows.map { $0.event }
                let names = try SQLiteNames.fold(BoundedNames.pairs(events), book: self.nameBook, admit: false, in: db)
                var counter = RollupCounter(maturityWindow: window, names: names)
                for event in events {
                    try counter.add(event, duplicate: event.duplicate ?? false, sentAt: sentAt.callAsFunction)
                }
                try RollupWriter.write(counter.accumulator, to: .ledger, statements: self.rollupStatements, in: db)
                let highest = try EventPositions.highest(in: db)
                try db.run(Queries.DeleteFoldedEvents(afterRow: start, throughRow: lastRowID, scope: scope))
                try EventPositions.keep(highest: highest, in: db)
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
        let windows = configuration.attributionWindows
        try await write { db in
            try SQLiteAttribution.reattributeAll(windows: windows, in: db)
            for (rollup, ledger) in MaintenancePlan.rebuildPairs {
                try db.run(Queries.DeleteRollupRows(table: rollup))
                let columns = try db.columns(in: ledger).map(\.name).joined(separator: ", ")
                try db.run(Queries.CopyLedgerIntoRollup(rollup: rollup, ledger: ledger, columns: columns))
            }
            let sentAt = try SentAtLookup(db)
            let names = try SQLiteNames.everything(in: db)
            var counter = RollupCounter(maturityWindow: window, names: names)
            var counted = 0
            try db.forEach(Queries.SelectCountedEvents()) { event in
                try counter.add(event, duplicate: event.duplicate ?? false, sentAt: sentAt.callAsFunction)
                counted += 1
                if counted % MaintenancePlan.rebuildChunk == 0 {
                    try RollupWriter.write(counter.accumulator, to: .rollups, statements: self.rollupStatements, in: db)
                    counter = RollupCounter(maturityWindow: window, names: names)
                }
            }
            try RollupWriter.write(counter.accumulator, to: .rollups, statements: self.rollupStatements, in: db)
        }
    }

    /// Writes a consistent copy of the database to `path` while the server keeps running (`VACUUM INTO`).
    public func backup(to path: String) async throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw FieldError("exists", "\(path) already exists; backups never overwrite", field: "path")
        }
        try await pool.writeWithoutTransaction { db in
            _ = try db.run(Queries.BackUpDatabase(path: path))
        }
    }

    /// Raw events still stored (not pruned).
    public func rawEventCount() async throws -> Int {
        try await read { db in try db.fetch(Queries.CountEvents()).first ?? 0 }
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
