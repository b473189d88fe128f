import PostgresNIO
import PushTallyCore

extension PostgresStore {
    /// Feeds `assembly` the media rows of the pushes `filter`'s scope selects (``MediaRollupQuery``), in the
    /// snapshot of the report's other reads.
    static func readMediaRows<Sink: PushRowSink>(_ filter: ReportFilter, into assembly: inout Sink, read: SnapshotReader) async throws {
        let query = MediaRollupQuery.pushRows(PushScope(filter), dialect: .postgres)
        for (id, values) in try await read(PostgresQuery(query)).decode((String, [Int64]).self) {
            assembly.media(pushID: id, outcomes: MediaOutcomes(values: values))
        }
    }

    /// Unique displays by media outcome and extension time per app or OS version, over the pushes `filter`
    /// selects; `""` holds those that named none.
    public func versionMedia(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [String: MediaOutcomes] {
        let named = MediaRollupQuery.versionRows(filter, dimension: dimension, dialect: .postgres)
        let totals = MediaRollupQuery.totals(filter, dialect: .postgres)
        return try await readSnapshot { read in
            let versions = try await read(PostgresQuery(named)).decode((String, [Int64]).self).map { version, values in
                (version: version, outcomes: MediaOutcomes(values: values))
            }
            var total = MediaOutcomes()
            for values in try await read(PostgresQuery(totals)).decode([Int64].self) { total = MediaOutcomes(values: values) }
            return MediaOutcomes.byVersion(named: versions, total: total)
        }
    }
}
