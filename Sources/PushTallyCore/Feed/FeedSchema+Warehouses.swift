import Foundation

/// The feed's schema as each warehouse loads it, rendered from ``FeedSchema/fields``.
extension FeedSchema {
    /// The warehouses a schema is rendered for (`pushtally export --schema`).
    public enum Dialect: String, CaseIterable, Sendable {
        case bigquery, clickhouse, duckdb, postgres, jsonschema
    }

    /// The schema in `dialect`'s own form.
    public static func render(_ dialect: Dialect) -> String {
        switch dialect {
        case .bigquery: bigQuery
        case .clickhouse: clickHouse
        case .duckdb, .postgres: sqlTable
        case .jsonschema: jsonSchema
        }
    }

    /// A BigQuery table schema (`bq load --schema`): a JSON array of fields.
    public static var bigQuery: String {
        let fields = fields.map { field -> [String: String] in
            let type = field.kind.spelled(text: "STRING", integer: "INT64", boolean: "BOOL")
            return ["name": field.name, "type": type, "mode": field.required ? "REQUIRED" : "NULLABLE", "description": field.description]
        }
        return json(fields)
    }

    /// A ClickHouse `CREATE TABLE`: a `ReplacingMergeTree` ordered by `event_id`, so an event loaded twice is
    /// kept once when parts merge (`SELECT … FINAL` dedupes before that).
    public static var clickHouse: String {
        let columns = fields.map { field -> String in
            let type = field.kind.spelled(text: "String", integer: "Int64", boolean: "Bool")
            return "    \(field.name) \(field.required ? type : "Nullable(\(type))") COMMENT \(sqlString(field.description))"
        }
        return "CREATE TABLE \(table) (\n\(columns.joined(separator: ",\n"))\n) ENGINE = ReplacingMergeTree ORDER BY event_id;\n"
    }

    /// A `CREATE TABLE` that DuckDB and PostgreSQL both take, keyed by `event_id`, so a load of the same file
    /// again (`INSERT … ON CONFLICT DO NOTHING`) adds nothing.
    public static var sqlTable: String {
        let columns = fields.map { field -> String in
            let type = field.kind.spelled(text: "TEXT", integer: "BIGINT", boolean: "BOOLEAN")
            return "    \(field.name) \(type)\(field.required ? " NOT NULL" : "")\(field.name == "event_id" ? " PRIMARY KEY" : "")"
        }
        return "CREATE TABLE \(table) (\n\(columns.joined(separator: ",\n"))\n);\n"
    }

    /// A JSON Schema (2020-12) of one line. Other properties are allowed: fields are added at the end.
    public static var jsonSchema: String {
        var properties: [String: Any] = [:]
        for field in fields {
            properties[field.name] = [
                "type": field.kind.spelled(text: "string", integer: "integer", boolean: "boolean"), "description": field.description,
            ]
        }
        let schema: [String: Any] = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://pushtally.dev/schemas/event-v\(version).json",
            "title": "A PushTally event (schema version \(version))",
            "type": "object",
            "required": fields.filter(\.required).map(\.name),
            "properties": properties,
        ]
        return json(schema)
    }

    private static func json(_ value: Any) -> String {
        // Strings, numbers, arrays and dictionaries only: always serializable.
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func sqlString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}

extension FeedField.Kind {
    /// The kind in a warehouse's words for its three kinds.
    fileprivate func spelled(text: String, integer: String, boolean: String) -> String {
        switch self {
        case .text: text
        case .integer: integer
        case .boolean: boolean
        }
    }
}
