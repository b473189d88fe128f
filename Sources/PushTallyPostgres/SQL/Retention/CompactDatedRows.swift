import PushTallyCore

extension Queries {
    /// Moves `table`'s dated rows of every day before `day` into their collectors' plain shards, summed per key:
    /// atomic by itself, so sums never change (``DatedShards``).
    struct CompactDatedRows: StoreQuery {
        let table: RollupTable
        let day: Int64

        func sql(_ dialect: SQLDialect) -> String {
            let upper = DatedShards.of(day: day, shard: 0)
            let upsert = dialect.upsert(table, into: .rollups)
            let key = table.key.map(\.name).joined(separator: ", ")
            let (base, shards) = (DatedShards.base, DatedShards.collectorShards)
            return """
                WITH moved AS (DELETE FROM \(table.name(in: .rollups)) WHERE shard >= \(base) AND shard < \(upper) RETURNING *)
                \(upsert.head) SELECT \(key), \(DatedShards.aggregates(table)), ((shard - \(base)) % \(shards) + \(shards)) % \(shards) AS plain FROM moved
                GROUP BY \(key), plain ORDER BY \(key), plain \(upsert.conflict)
                """
        }

        var values: [QueryValue] { [] }
    }
}
