/// Each rollup table's columns as the migration that created it shipped them, written out.
///
/// A released migration is history: it must create on a fresh database what it created on the databases it
/// already ran on, so that the migrations after it (an `ADD COLUMN` on a rollup table, say) find what they
/// expect. ``RollupTable``'s ``RollupTable/key`` and ``RollupTable/values`` are the live columns and grow with
/// the product; these lists never change. A new rollup table's migration may use the live declaration until it
/// is released; then its columns are copied here.
package enum ReleasedRollupColumns {
    private static func integer(_ name: String, zero: Bool = false) -> RollupTable.Column {
        RollupTable.Column(name: name, type: .integer, defaultsToZero: zero)
    }

    private static func text(_ name: String) -> RollupTable.Column { RollupTable.Column(name: name, type: .text) }

    private static let counts = [integer("total"), integer("duplicates")]
    private static let kindAction = [integer("kind"), text("action")]
    private static let mediaCounts = ["media_attached", "media_failed", "media_timed_out", "media_none", "media_unknown"]
        .map { integer($0, zero: true) }
    private static let extensionTimes = (0..<60).map { integer("e\($0)", zero: true) }

    /// The key columns `table` was created with.
    package static func key(_ table: RollupTable) -> [RollupTable.Column] {
        switch table {
        case .push: [text("push_id")] + kindAction
        case .bucket: [text("push_id"), integer("bucket")] + kindAction
        case .time: [integer("bucket")] + kindAction
        case .version: [text("push_id"), integer("dimension"), text("version")] + kindAction
        case .pending: [text("push_id"), integer("clock"), integer("second")]
        case .outcome: [text("push_id"), integer("measure"), text("currency")]
        case .outcomeTime: [integer("bucket"), integer("measure"), text("currency")]
        case .timing, .media: [text("push_id")]
        case .mediaBucket: [text("push_id"), integer("bucket")]
        case .mediaVersion: [text("push_id"), integer("dimension"), text("version")]
        case .platformBucket: [text("push_id"), integer("bucket"), text("platform")] + kindAction
        }
    }

    /// The value columns `table` was created with. `rollup_push` got `late` from SQLite's v2 on (SQLite's v1
    /// writes its first shape out itself); the outcome tables got `value_units` by a later migration.
    package static func values(_ table: RollupTable) -> [RollupTable.Column] {
        switch table {
        case .push: counts + [integer("first_time"), integer("last_time"), integer("late", zero: true)]
        case .bucket, .time, .version, .platformBucket: counts
        case .pending: [integer("count")]
        case .outcome, .outcomeTime: [integer("count"), integer("value_micros")]
        case .timing: (0..<40).map { integer("b\($0)", zero: true) }
        case .mediaBucket: mediaCounts
        case .media, .mediaVersion: mediaCounts + extensionTimes
        }
    }
}

extension SQLDialect {
    /// `CREATE TABLE` for `table` in `target` as its released migration shipped it (``ReleasedRollupColumns``).
    package func createReleased(_ table: RollupTable, in target: RollupTarget, sharded: Bool) -> String {
        create(table, in: target, sharded: sharded, key: ReleasedRollupColumns.key(table), values: ReleasedRollupColumns.values(table))
    }
}
