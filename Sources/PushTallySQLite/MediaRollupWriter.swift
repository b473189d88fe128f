import GRDB
import PushTallyCore

/// SQLite's additions to the media rollups (``RollupTable/media``, ``RollupTable/mediaBucket``,
/// ``RollupTable/mediaVersion``): each row's counts, then only its ``HistogramRun`` of extension-time
/// buckets, as ``TimingTable`` writes time to display.
struct MediaRollupWriter {
    let target: RollupTarget
    /// The writer's statements, by table and run (`-1`: no bucket).
    let statements: RollupStatements

    /// Each table's key columns (``RollupKeyBinder``), read from its declaration once.
    private static let pushKeys = RollupKeyBinder<String>(.media)
    private static let bucketKeys = RollupKeyBinder<RollupAccumulator.MediaBucketKey>(.mediaBucket)
    private static let versionKeys = RollupKeyBinder<RollupAccumulator.MediaVersionKey>(.mediaVersion)

    func write(_ accumulator: RollupAccumulator, in db: Database) throws {
        let pushKeys = Self.pushKeys
        for (pushID, media) in accumulator.media {
            try upsert(.media, key: { pushKeys.bind(pushID, to: $0) }, media, histogram: true, in: db)
        }
        let bucketKeys = Self.bucketKeys
        for (key, media) in accumulator.mediaBuckets {
            try upsert(.mediaBucket, key: { bucketKeys.bind(key, to: $0) }, media, histogram: false, in: db)
        }
        let versionKeys = Self.versionKeys
        for (key, media) in accumulator.mediaVersions {
            try upsert(.mediaVersion, key: { versionKeys.bind(key, to: $0) }, media, histogram: true, in: db)
        }
    }

    /// Binds the key (`key` returns the next parameter's index), the counts and the changed run of buckets.
    private func upsert(
        _ table: RollupTable, key: (BoundStatement) -> Int32, _ media: MediaOutcomes, histogram: Bool, in db: Database
    ) throws {
        let buckets = media.extensionTime.counts
        let run = histogram ? HistogramRun(buckets) : nil
        try self.statement(table, run: run, in: db).add { statement in
            var index = key(statement)
            for count in media.counts {
                statement.bind(index, count)
                index += 1
            }
            guard let run else { return }
            for bucket in run.columns {
                statement.bind(index, buckets[bucket])
                index += 1
            }
        }
    }

    private func statement(_ table: RollupTable, run: HistogramRun?, in db: Database) throws -> AdditiveStatement {
        let counts = table.values.prefix(MediaOutcomes.countColumns.count)
        return try statements.statement(
            table, into: target, run: run?.id ?? -1,
            values: Array(counts) + (run.map { Array(RollupTable.extensionTimes[$0.columns]) } ?? []), in: db)
    }
}
