import PushTallyCore

extension Queries {
    /// Adds `table`'s live rows of `days` to its ledger, summed per key (`least`/`greatest` columns by their own
    /// merge): one pass over the days' shard range however many days (``DatedShards``).
    struct FoldDatedRows: StoreQuery {
        let table: RollupTable
        let days: Set<Int64>

        func sql(_ dialect: SQLDialect) -> String {
            let (lower, upper) = (DatedShards.range(day: days.min() ?? 0).lower, DatedShards.range(day: days.max() ?? 0).upper)
            let listed = days.sorted().map(String.init).joined(separator: ", ")
            let upsert = dialect.upsert(table, into: .ledger)
            let key = table.key.map(\.name).joined(separator: ", ")
            let (base, shards) = (DatedShards.base, DatedShards.collectorShards)
            return """
                \(upsert.head) SELECT \(key), \(DatedShards.aggregates(table)) FROM \(table.name(in: .rollups))
                WHERE shard >= \(lower) AND shard < \(upper) AND (shard - \(base)) / \(shards) IN (\(listed))
                GROUP BY \(key) ORDER BY \(key) \(upsert.conflict)
                """
        }

        var values: [QueryValue] { [] }
    }
}
