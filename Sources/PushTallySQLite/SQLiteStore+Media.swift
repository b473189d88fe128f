import GRDB
import PushTallyCore

extension SQLiteStore {
    /// Feeds `assembly` the media rows of the pushes `filter`'s scope selects (``MediaRollupQuery``).
    static func readMediaRows<Sink: PushRowSink>(_ filter: ReportFilter, into assembly: inout Sink, in db: Database) throws {
        let query = MediaRollupQuery.pushRows(PushScope(filter), dialect: .sqlite)
        try RawColumns.forEachRow(db.cachedStatement(sql: query.sql), arguments: query.arguments) { row in
            assembly.media(pushID: row.text(0), outcomes: MediaOutcomes(values: row.integers(from: 1)))
        }
    }

    /// Unique displays by media outcome and extension time per app or OS version, over the pushes `filter`
    /// selects; `""` holds those that named none.
    public func versionMedia(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [String: MediaOutcomes] {
        let named = MediaRollupQuery.versionRows(filter, dimension: dimension, dialect: .sqlite) { _ in "?" }
        let totals = MediaRollupQuery.totals(filter, dialect: .sqlite) { _ in "?" }
        return try await read { db in
            var versions: [(version: String, outcomes: MediaOutcomes)] = []
            try RawColumns.forEachRow(db.cachedStatement(sql: named.sql), arguments: named.arguments) { row in
                versions.append((row.text(0), MediaOutcomes(values: row.integers(from: 1))))
            }
            var total = MediaOutcomes()
            try RawColumns.forEachRow(db.cachedStatement(sql: totals.sql), arguments: totals.arguments) { row in
                total = MediaOutcomes(values: row.integers(from: 0))
            }
            return MediaOutcomes.byVersion(named: versions, total: total)
        }
    }
}

extension MediaRollupQuery.Rendered {
    var arguments: StatementArguments {
        StatementArguments(values.map { value -> any DatabaseValueConvertible in
            switch value {
            case .text(let text): text
            case .integer(let integer): integer
            }
        })
    }
}

extension RawColumns {
    /// A media row's values (``MediaRollupQuery/width`` of them) from column `first` on.
    func integers(from first: Int) -> [Int64] {
        (0..<MediaRollupQuery.width).map { int64(first + $0) }
    }
}
