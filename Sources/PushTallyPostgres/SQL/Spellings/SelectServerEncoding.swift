import PushTallyCore

extension Queries {
    /// The server's encoding (`UTF8`, …): PostgreSQL normalizes text only under UTF8.
    struct SelectServerEncoding: RowQuery {
        func sql(_ dialect: SQLDialect) -> String { "SELECT current_setting('server_encoding')" }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
