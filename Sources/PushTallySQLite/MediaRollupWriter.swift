import GRDB
import PushTallyCore

/// SQLite's upserts of the media rollups (``RollupTable/media``, ``RollupTable/mediaBucket``,
/// ``RollupTable/mediaVersion``): each row's counts, then only the run of extension-time buckets from its
/// first to its last changed one, as ``TimingTable`` writes time to display (most displays of a commit share
/// a few neighbouring buckets, and naming all sixty columns would cost every upsert).
struct MediaRollupWriter {
    let target: RollupTarget
    /// Statements by table and run (`-1`: no bucket), each prepared once per write.
    private var statements: [RollupTable: [Int: BoundStatement]] = [:]

    init(target: RollupTarget) {
        self.target = target
    }

    mutating func write(_ accumulator: RollupAccumulator, in db: Database) throws {
        for (pushID, media) in accumulator.media {
            try upsert(.media, key: { $0.bind(1, pushID); return 2 }, media, histogram: true, in: db)
        }
        for (key, media) in accumulator.mediaBuckets {
            try upsert(
                .mediaBucket, key: { statement in
                    statement.bind(1, key.pushID)
                    statement.bind(2, key.bucket)
                    return 3
                }, media, histogram: false, in: db)
        }
        for (key, media) in accumulator.mediaVersions {
            try upsert(
                .mediaVersion, key: { statement in
                    statement.bind(1, key.pushID)
                    statement.bind(2, key.dimension)
                    statement.bind(3, key.version)
                    return 4
                }, media, histogram: true, in: db)
        }
    }

    /// Binds the key (`key` returns the next parameter's index), the counts and the changed run of buckets.
    private mutating func upsert(
        _ table: RollupTable, key: (BoundStatement) -> Int32, _ media: MediaOutcomes, histogram: Bool, in db: Database
    ) throws {
        let buckets = media.extensionTime.counts
        var run: ClosedRange<Int>?
        if histogram, let first = buckets.firstIndex(where: { $0 != 0 }), let last = buckets.lastIndex(where: { $0 != 0 }) {
            run = first...last
        }
        let statement = try self.statement(table, run: run, in: db)
        var index = key(statement)
        for count in media.counts {
            statement.bind(index, count)
            index += 1
        }
        for bucket in run.map(Array.init) ?? [] {
            statement.bind(index, buckets[bucket])
            index += 1
        }
        try statement.execute()
    }

    private mutating func statement(_ table: RollupTable, run: ClosedRange<Int>?, in db: Database) throws -> BoundStatement {
        let id = run.map { $0.lowerBound * ExtensionTimeHistogram.count + $0.upperBound } ?? -1
        if let statement = statements[table]?[id] { return statement }
        let counts = table.values.prefix(MediaOutcomes.countColumns.count)
        let sql = RunUpserts.shared.sql(
            table, into: target, run: id, values: Array(counts) + (run.map { Array(RollupTable.extensionTimes[$0]) } ?? []))
        let statement = try BoundStatement(db, sql: sql)
        statements[table, default: [:]][id] = statement
        return statement
    }
}
