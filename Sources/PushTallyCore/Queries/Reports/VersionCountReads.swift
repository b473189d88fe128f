extension SQLDialect {
    /// Receipts and actions per value of `dimension` over the pushes `filter` selects, then their totals
    /// over every value (``VersionCount/completing(_:pushTotals:)``), both read in one snapshot.
    package func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) -> (named: RenderedQuery, totals: RenderedQuery) {
        let counts = "\(sum("b.total")), \(sum("b.duplicates"))"
        return (
            rollupRows(
                "SELECT b.version, b.kind, b.action, \(counts) FROM rollup_version b",
                RollupScope(filter).requiring("b.dimension =", .integer(Int64(dimension.rawValue))),
                groupBy: "b.version, b.kind, b.action"),
            rollupRows("SELECT b.kind, b.action, \(counts) FROM rollup_push b", RollupScope(filter), groupBy: "b.kind, b.action")
        )
    }
}

extension ReportRowDecoding {
    /// A row of ``SQLDialect/versionCounts(_:dimension:)``'s `named` read.
    package static func versionCount<Row: ReportRow>(_ row: Row) throws -> VersionCount {
        VersionCount(
            version: try row.text(0), kind: EventKind(rawValue: Int(try row.int64(1))) ?? .display, action: try row.text(2),
            count: EventCount(total: try row.int64(3), duplicates: try row.int64(4)))
    }

    /// A row of ``SQLDialect/versionCounts(_:dimension:)``'s `totals` read.
    package static func pushTotal<Row: ReportRow>(_ row: Row) throws -> (kind: EventKind, action: String, count: EventCount) {
        (EventKind(rawValue: Int(try row.int64(0))) ?? .display, try row.text(1),
         EventCount(total: try row.int64(2), duplicates: try row.int64(3)))
    }
}
