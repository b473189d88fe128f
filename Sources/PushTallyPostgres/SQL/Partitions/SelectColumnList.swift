import PushTallyCore

extension Queries {
    /// `table`'s columns in order, quoted and joined by commas, for statements that move rows between tables
    /// column for column (columns added by later migrations included). One row.
    struct SelectColumnList: RowQuery {
        let table: String

        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
            WHERE attrelid = ?::regclass AND attnum > 0 AND NOT attisdropped
            """
        }

        var values: [QueryValue] { [.text(table)] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
