import Logging
import PostgresNIO
import PushTallyCore

extension PostgresStore: StoreMaintenance {
    /// Deletes raw events received before `cutoffMillis`, folding their counts into the ledger first. Day
    /// partitions wholly before the cutoff go whole (``dropPartitions(before:)``); the rest (the day the
    /// cutoff falls in, the default partition) row by row in transactions of `batchSize`. Reports do not change.
    @discardableResult
    public func prune(receivedBefore cutoffMillis: Int64, batchSize: Int = MaintenancePlan.batchSize) async throws -> Int {
        // Noted first: from now on, sessions and conversions whose windows reach the cutoff keep their credit.
        let logger = logger
        try await transaction { connection in
            try await PostgresAttribution.notePruned(before: cutoffMillis, on: connection, logger: logger)
            try await connection.run(Queries.PruneDeviceStates(before: cutoffMillis), logger: logger)
        }
        let dropped = try await dropPartitions(before: cutoffMillis)
        return try await dropped + foldIntoLedger(.receivedBefore(cutoffMillis), batchSize: batchSize)
    }

    /// Deletes every raw event of one device (by its keyed hash), its dedupe keys and its audience rows; counts stay.
    @discardableResult
    public func forget(deviceID: String) async throws -> Int {
        guard let deviceHasher else { throw StoreError.misconfigured("forget needs the device secret (--device-secret)") }
        let hashed = deviceHasher.hash(deviceID)
        let forgotten = try await foldIntoLedger(.device(keyedID: hashed), batchSize: MaintenancePlan.batchSize)
        try await write(Queries.DeleteDeviceDedupeKeys(suffix: DedupeKeys.deviceSuffix(keyedDeviceID: hashed)))
        try await write(Queries.ForgetAudience(deviceID: hashed))
        try await write(Queries.DeleteDeviceState(deviceKey: hashed))
        return forgotten
    }

    /// Each transaction deletes a batch and folds exactly the rows it deleted (`DELETE … RETURNING`), so an
    /// event another collector commits meanwhile is never deleted uncounted.
    private func foldIntoLedger(_ condition: Queries.DeleteEventsToFold.Condition, batchSize: Int) async throws -> Int {
        let window = configuration.maturityWindowMillis
        let logger = logger
        let book = nameBook
        var total = 0
        while true {
            let count = try await transaction { connection in
                let rows = try await connection.run(
                    PostgresQuery(Queries.DeleteEventsToFold(condition: condition, batchSize: batchSize)), logger: logger)
                let events = try StoredEvent.counted(rows)
                guard !events.isEmpty else { return 0 }
                try await PushLocks.lock(
                    Set(events.lazy.filter { $0.0.kind == .display }.map(\.0.pushID)), mode: .shared, on: connection, logger: logger)
                let names = try await PostgresNames.fold(
                    BoundedNames.pairs(events.lazy.map(\.0)), book: book, admit: false, inTransaction: true, on: connection, logger: logger)
                let counter = try await PostgresEventWriter.count(
                    events, maturityWindow: window, names: names, on: connection, logger: logger)
                try await PostgresRollupWriter.write(counter.accumulator, to: .ledger, shard: 0, on: connection, logger: logger)
                // Their days' rows still hold them, so those days fold from their remaining events from now on.
                try await DatedShards.markUndated(
                    DatedShards.days(events.lazy.map(\.0.receivedAt)), on: connection, logger: logger)
                return events.count
            }
            total += count
            // Another collector pruning at once takes other rows (SKIP LOCKED): only an empty batch means done.
            if count == 0 { return total }
        }
    }

    /// Recomputes every rollup from the ledger plus the raw events in one transaction, every stored credit
    /// first. It locks out writers of events, pushes and the ledger meanwhile: collectors wait, then go on.
    public func rebuildRollups() async throws {
        let window = configuration.maturityWindowMillis
        let windows = configuration.attributionWindows
        let logger = logger
        let shard = shard
        let book = nameBook
        try await foldRetiredPartitions()
        try await transaction { connection in
            // Events in a mode that also keeps other rebuilds out: this one updates the stored credits.
            try await connection.run(Queries.LockTables(tables: ["events"], mode: "SHARE ROW EXCLUSIVE"), logger: logger)
            try await connection.run(Queries.LockTables(tables: ["pushes"] + RollupTarget.ledger.tables, mode: "SHARE"), logger: logger)
            try await PostgresAttribution.reattributeAll(windows: windows, on: connection, logger: logger)
            for (rollup, ledger) in MaintenancePlan.rebuildPairs {
                try await connection.run(Queries.EmptyTable(table: rollup), logger: logger)
                // The ledger's rows go to this collector's shard, like the rest.
                let columns = try await EventPartitions.columnList(of: ledger, on: connection, logger: logger)
                try await connection.run(
                    Queries.CopyLedgerIntoRollup(rollup: rollup, ledger: ledger, columns: columns, shard: shard), logger: logger)
            }
            try await connection.run(Queries.DeclareRebuildCursor(), logger: logger)
            let fetch = Queries.FetchFromCursor(cursor: "rebuild", rows: MaintenancePlan.rebuildChunk)
            while true {
                let events = try StoredEvent.counted(try await connection.run(PostgresQuery(fetch), logger: logger))
                guard !events.isEmpty else { break }
                let names = try await PostgresNames.fold(
                    BoundedNames.pairs(events.lazy.map(\.0)), book: book, admit: false, inTransaction: true, on: connection, logger: logger)
                // Each day's events into that day's rows (``DatedShards``), so every day stored folds from them.
                for (day, dayEvents) in Dictionary(grouping: events, by: { EventPartitions.day(ofMillis: $0.0.receivedAt) }) {
                    let counter = try await PostgresEventWriter.count(
                        dayEvents, maturityWindow: window, names: names, on: connection, logger: logger)
                    try await PostgresRollupWriter.write(
                        counter.accumulator, to: .rollups, shard: DatedShards.of(day: day, shard: shard), on: connection,
                        logger: logger)
                }
            }
            try await connection.run(Queries.CloseCursor(cursor: "rebuild"), logger: logger)
            try await DatedShards.resetDated(on: connection, logger: logger)
        }
    }

    /// Raw events still stored (not pruned).
    public func rawEventCount() async throws -> Int {
        try await fetch(Queries.CountTableRows(table: "events")).first ?? 0
    }
}
