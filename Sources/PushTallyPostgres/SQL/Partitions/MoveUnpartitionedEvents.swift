import PushTallyCore

extension Queries {
    /// Moves the first `batchSize` rows by id of the unpartitioned `table` into `events`, column for column.
    ///
    /// Not `EventColumns`' insert: `columns` are the old table's as the catalog lists them
    /// (``SelectColumnList``), so a database that stopped at any earlier migration moves whatever it has.
    struct MoveUnpartitionedEvents: StoreQuery {
        let table: String
        let columns: String
        let batchSize: Int

        func sql(_ dialect: SQLDialect) -> String {
            """
            WITH batch AS (
                DELETE FROM \(table) WHERE id IN (SELECT id FROM \(table) ORDER BY id LIMIT \(batchSize))
                RETURNING \(columns))
            INSERT INTO events (\(columns)) SELECT \(columns) FROM batch
            """
        }

        var values: [QueryValue] { [] }
    }
}
