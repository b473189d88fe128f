extension VersionCount {
    /// Completes the counts of named versions with the events that named none.
    ///
    /// Events that name no version have no rows of their own (most receipts name none, and a row each per commit
    /// cost ingest a quarter): per kind and action they are the push rollups' total minus the named ones.
    package static func completing(
        _ named: [VersionCount], pushTotals: [(kind: EventKind, action: String, count: EventCount)]
    ) -> [VersionCount] {
        var counts = named
        for total in pushTotals {
            let known = named.filter { $0.kind == total.kind && $0.action == total.action }
            let unnamed = EventCount(
                total: total.count.total - known.reduce(0) { $0 + $1.count.total },
                duplicates: total.count.duplicates - known.reduce(0) { $0 + $1.count.duplicates })
            if unnamed.total > 0 {
                counts.append(VersionCount(version: "", kind: total.kind, action: total.action, count: unnamed))
            }
        }
        return counts
    }
}
