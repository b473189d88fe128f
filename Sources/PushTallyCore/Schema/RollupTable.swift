/// A rollup table, in its live and ledger twins (``RollupTarget``), as both engines declare and write it:
/// its key columns, then its value columns, each value merged on conflict by ``Merge``. Reports add rows up,
/// so every write is an additive upsert, never a read-modify-write.
package enum RollupTable: CaseIterable, Sendable {
    case push, bucket, time, version, pending, outcome, outcomeTime, timing
    /// Unique displays by media outcome with their extension times, per push; per push and 15-minute bucket
    /// (counts only); per push and named app or OS version (``MediaOutcomes``).
    case media, mediaBucket, mediaVersion
    /// Receipts and actions per push, 15-minute bucket and named platform (the time series by platform).
    case platformBucket

    /// How a value column takes a new row's value when its key is already stored.
    package enum Merge: Sendable { case add, least, greatest }

    package struct Column: Sendable {
        package var name: String
        package var type: ColumnType
        package var merge: Merge = .add
        /// `DEFAULT 0`: a column added to a table that already had rows, or a histogram bucket left out of an upsert.
        package var defaultsToZero = false
        /// Where the writers read a row's value of this column (``RollupValue``); `nil` for key columns and for
        /// the tables whose values are count arrays.
        package var value: RollupValue? = nil
    }

    package func name(in target: RollupTarget) -> String {
        switch self {
        case .push: target.push
        case .bucket: target.bucket
        case .time: target.time
        case .version: target.version
        case .pending: target.pending
        case .outcome: target.outcome
        case .outcomeTime: target.outcomeTime
        case .timing: target.timing
        case .media: target.media
        case .mediaBucket: target.mediaBucket
        case .mediaVersion: target.mediaVersion
        case .platformBucket: target.platformBucket
        }
    }

    package var key: [Column] {
        let pushID = Column(name: "push_id", type: .text)
        let bucket = Column(name: "bucket", type: .integer)
        let kindAction = [Column(name: "kind", type: .integer), Column(name: "action", type: .text)]
        let measure = [Column(name: "measure", type: .integer), Column(name: "currency", type: .text)]
        let version = [Column(name: "dimension", type: .integer), Column(name: "version", type: .text)]
        switch self {
        case .push: return [pushID] + kindAction
        case .bucket: return [pushID, bucket] + kindAction
        case .time: return [bucket] + kindAction
        case .version: return [pushID] + version + kindAction
        case .pending: return [pushID, Column(name: "clock", type: .integer), Column(name: "second", type: .integer)]
        case .outcome: return [pushID] + measure
        case .outcomeTime: return [bucket] + measure
        case .timing, .media: return [pushID]
        case .mediaBucket: return [pushID, bucket]
        case .mediaVersion: return [pushID] + version
        case .platformBucket: return [pushID, bucket, Column(name: "platform", type: .text)] + kindAction
        }
    }

    package var values: [Column] {
        let counts = [
            Column(name: "total", type: .integer, value: .delta(.total)),
            Column(name: "duplicates", type: .integer, value: .delta(.duplicates)),
        ]
        switch self {
        case .push:
            return counts + [
                Column(name: "first_time", type: .integer, merge: .least, value: .delta(.firstTime)),
                Column(name: "last_time", type: .integer, merge: .greatest, value: .delta(.lastTime)),
            ] + PushCount.allCases.map { Column(name: $0.column, type: .integer, defaultsToZero: true, value: .delta(.count($0))) }
        case .bucket, .time, .version, .platformBucket: return counts
        case .pending: return [Column(name: "count", type: .integer)]
        case .outcome, .outcomeTime:
            // A value as its two parts (MoneyTotal): the total is value_units × 10^6 + value_micros, exact past
            // 64 bits of millionths. Rows written before value_units have their whole value in value_micros.
            return [
                Column(name: "count", type: .integer, value: .outcome(.count)),
                Column(name: "value_micros", type: .integer, value: .outcome(.valueMicros)),
                Column(name: "value_units", type: .integer, defaultsToZero: true, value: .outcome(.valueUnits)),
            ]
        case .timing: return TimingColumns.names.map { Column(name: $0, type: .integer, defaultsToZero: true) }
        case .mediaBucket: return Self.mediaCounts
        case .media, .mediaVersion: return Self.mediaCounts + Self.extensionTimes
        }
    }

    /// The media tables' counts (``MediaOutcomes/countColumns``), then their extension-time buckets
    /// (``ExtensionTimeHistogram``): all zero by default, as an upsert names only the buckets it changes.
    private static let mediaCounts = MediaOutcomes.countColumns.map { Column(name: $0, type: .integer, defaultsToZero: true) }
    package static let extensionTimes = ExtensionTimeHistogram.columnNames.map {
        Column(name: $0, type: .integer, defaultsToZero: true)
    }
}

/// An additive upsert into one rollup table, split where the engines' row forms go between: `head`, then
/// one row of placeholders, a `VALUES` list or a `SELECT … FROM unnest(…)`, then `conflict`.
package struct RollupUpsert: Sendable {
    /// `INSERT INTO table (columns…)`, the shard last when the table has one.
    package let head: String
    /// `ON CONFLICT (key…) DO UPDATE SET …`.
    package let conflict: String
    /// How many values a row binds, the shard included.
    package let columnCount: Int

    /// The whole statement for one row of `?` placeholders (SQLite).
    package var singleRow: String { "\(head) VALUES \(SQLDialect.questionMarks(columnCount)) \(conflict)" }
}

extension SQLDialect {
    /// `CREATE TABLE` for `table` in `target`; `sharded` adds the `shard` key column last (see ``shards(_:)``;
    /// explicit, as a table created before its engine sharded it gets its shard by a later migration).
    /// `key` and `values` stand in for the table's columns in a released migration (``createReleased(_:in:sharded:)``).
    package func create(
        _ table: RollupTable, in target: RollupTarget, sharded: Bool, key: [RollupTable.Column]? = nil,
        values: [RollupTable.Column]? = nil
    ) -> String {
        let keyColumns = key ?? table.key
        let columns = (keyColumns + (values ?? table.values)).map { column in
            "\(column.name) \(type(column.type)) NOT NULL\(column.defaultsToZero ? " DEFAULT 0" : "")"
        } + (sharded ? ["shard \(integer) NOT NULL DEFAULT 0"] : [])
        let key = keyColumns.map(\.name) + (sharded ? ["shard"] : [])
        return "CREATE TABLE \(table.name(in: target)) (\(columns.joined(separator: ", ")), PRIMARY KEY (\(key.joined(separator: ", "))))\(withoutRowID)"
    }

    /// The upsert of `table` in `target`, with a `shard` column when this dialect shards the target.
    /// `values` narrows the value columns written (SQLite's histogram upserts name only the buckets they change).
    package func upsert(_ table: RollupTable, into target: RollupTarget, values: [RollupTable.Column]? = nil) -> RollupUpsert {
        let sharded = shards(target)
        let values = values ?? table.values
        let shard = sharded ? ["shard"] : []
        let columns = table.key.map(\.name) + values.map(\.name) + shard
        let stored = storedRow
        let updates = values.map { column in
            let (old, new) = ("\(stored)\(column.name)", "excluded.\(column.name)")
            switch column.merge {
            case .add: return "\(column.name) = \(old) + \(new)"
            case .least: return "\(column.name) = \(least(old, new))"
            case .greatest: return "\(column.name) = \(greatest(old, new))"
            }
        }
        return RollupUpsert(
            head: "INSERT INTO \(table.name(in: target))\(tableAlias) (\(columns.joined(separator: ", ")))",
            conflict: "ON CONFLICT (\((table.key.map(\.name) + shard).joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))",
            columnCount: columns.count)
    }
}
