import PostgresNIO

/// Builds one statement's text and its bindings together, so placeholders (`$1`, `$2`…) always match.
struct SQLBuilder {
    private(set) var text = ""
    private(set) var binds = PostgresBindings()

    init(_ text: String = "") {
        self.text = text
    }

    /// Binds `value` and returns its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// Binds `value`, or SQL NULL, and returns its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    mutating func append(_ sql: String) {
        text += sql
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: text, binds: binds) }

    /// Statements of the form `head VALUES (…), (…) tail`, as many as the protocol's 65,535 bindings per
    /// statement need: one round trip per chunk instead of one per row.
    static func values<Row>(
        _ rows: [Row], columns: Int, head: String, tail: String = "",
        bind: (Row, inout SQLBuilder) -> [String]
    ) -> [PostgresQuery] {
        let perStatement = max(1, Int(UInt16.max) / columns)
        var queries: [PostgresQuery] = []
        var start = 0
        while start < rows.count {
            let end = min(rows.count, start + perStatement)
            var builder = SQLBuilder(head + " VALUES ")
            for index in start..<end {
                let placeholders = bind(rows[index], &builder)
                builder.append((index == start ? "(" : ", (") + placeholders.joined(separator: ", ") + ")")
            }
            builder.append(" " + tail)
            queries.append(builder.query)
            start = end
        }
        return queries
    }
}
