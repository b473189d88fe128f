extension SQLDialect {
    /// 15-minute rollup counts of the pushes `filter` selects, whose `from`/`to` bound the event time, and of
    /// its platform: the counts to add up, then those to take from them (``BucketCount/subtracting(_:from:)``).
    /// A named platform's counts are its rows of the per-bucket platform rollup; `unknown`'s are every event's
    /// less the rows of the other named platforms, as a campaigns report's `unknown` row is its push's rest.
    package func bucketCounts(_ filter: ReportFilter) -> (counts: RenderedQuery, less: RenderedQuery?) {
        let scope = RollupScope(filter, bucketRange: true)
        func counts(_ scope: RollupScope) -> RenderedQuery {
            rollupRows(
                "SELECT b.bucket, b.kind, b.action, \(sum("b.total")), \(sum("b.duplicates")) FROM \(scope.bucketTable) b",
                scope, groupBy: "b.bucket, b.kind, b.action")
        }
        switch filter.platform {
        case nil: return (counts(scope), nil)
        case ReportGrouping.unknownPlatform?: return (counts(scope), counts(scope.namedPlatforms))
        case let platform?: return (counts(scope.named(platform: platform)), nil)
        }
    }
}

extension ReportRowDecoding {
    /// A row of ``SQLDialect/bucketCounts(_:)``.
    package static func bucketCount<Row: ReportRow>(_ row: Row) throws -> BucketCount {
        BucketCount(
            bucket: try row.int64(0), kind: EventKind(rawValue: Int(try row.int64(1))) ?? .display, action: try row.text(2),
            count: EventCount(total: try row.int64(3), duplicates: try row.int64(4)))
    }
}
