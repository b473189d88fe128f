import GRDB
import PushTallyCore

extension SQLiteStore {
    /// Feeds `assembly` the media rows of the pushes `filter`'s scope selects (``MediaRollupQuery``).
    static func readMediaRows<Sink: PushRowSink>(_ filter: ReportFilter, into assembly: inout Sink, in db: Database) throws {
        let query = MediaRollupQuery.pushRows(PushScope(filter), dialect: .sqlite)
        try RawColumns.forEachRow(query, in: db) { row in
            assembly.media(pushID: row.text(0), outcomes: MediaOutcomes(values: row.integers(from: 1)))
        }
    }

    /// Unique displays by media outcome and extension time per app or OS version, over the pushes `filter`
    /// selects; `""` holds those that named none.
    public func versionMedia(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [String: MediaOutcomes] {
        let named = MediaRollupQuery.versionRows(filter, dimension: dimension, dialect: .sqlite)
        let totals = MediaRollupQuery.totals(filter, dialect: .sqlite)
        return try await read { db in
            var versions: [(version: String, outcomes: MediaOutcomes)] = []
            try RawColumns.forEachRow(named, in: db) { row in
                versions.append((row.text(0), MediaOutcomes(values: row.integers(from: 1))))
            }
            var total = MediaOutcomes()
            try RawColumns.forEachRow(totals, in: db) { row in
                total = MediaOutcomes(values: row.integers(from: 0))
            }
            return MediaOutcomes.byVersion(named: versions, total: total)
        }
    }
}

extension RawColumns {
    /// A media row's values (``MediaRollupQuery/width`` of them) from column `first` on.
    func integers(from first: Int) -> [Int64] {
        (0..<MediaRollupQuery.width).map { int64(first + $0) }
    }
}
