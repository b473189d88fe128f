import PushTallyCore

extension Queries {
    /// Records the export sequence numbers `seqs` of `source` as imported and returns those not recorded before:
    /// the events to import. In order, so concurrent imports take the rows' locks alike.
    struct InsertImportedSequences: RowQuery {
        let source: String
        let seqs: [Int64]

        func sql(_ dialect: SQLDialect) -> String {
            """
            INSERT INTO imported_events (source, seq) SELECT ?, s FROM unnest(?::bigint[]) AS s ORDER BY 2
            ON CONFLICT DO NOTHING RETURNING seq
            """
        }

        var values: [QueryValue] { [.text(source), .integers(seqs)] }

        func row(_ columns: some QueryRow) throws -> Int64 { try columns.int64(0) }
    }
}
