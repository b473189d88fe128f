import PostgresNIO
import PushTallyCore

/// The numbered parameters of a prepared statement whose rows arrive as column arrays (`unnest`), counted
/// from `$1` in the order the statement binds them.
struct UnnestParameters {
    private(set) var count = 0

    /// The next parameter's number.
    mutating func next() -> Int {
        count += 1
        return count
    }

    /// The next parameters, one array per element type, as `$n::type[]`, comma-separated.
    mutating func arrays(_ types: [String]) -> String {
        types.map { "$\(next())::\($0)[]" }.joined(separator: ", ")
    }

    /// The next parameters, one array per key and value column of `table`, in its upsert's order.
    mutating func arrays(for table: RollupTable) -> String {
        arrays((table.key + table.values).map(\.type.arrayElement))
    }
}

extension ColumnType {
    /// The element type of a PostgreSQL array of this column.
    var arrayElement: String {
        switch self {
        case .text: "text"
        case .integer: "bigint"
        case .boolean: "boolean"
        }
    }
}

extension PostgresBindings {
    /// One array per column of `rows`' raw events, in `columns`' order, each value through the shared column
    /// definition (``EventColumn/value(of:duplicate:credit:)``); optional columns keep SQL `NULL` apart from text.
    mutating func appendEventColumns(_ columns: [EventColumn], of rows: [(event: StoredEvent, duplicate: Bool, credit: Attribution?)]) {
        for column in columns {
            let values = rows.map { column.value(of: $0.event, duplicate: $0.duplicate, credit: $0.credit) }
            switch column.type {
            case .text where column.isRequired: append(values.map { $0.text ?? "" })
            case .text: append(NullableTextArray(values.map(\.text)))
            case .integer where column.isRequired: append(values.map { $0.integer ?? 0 })
            case .integer: append(NullableIntegerArray(values.map(\.integer)))
            case .boolean: append(values.map(\.boolean))
            }
        }
    }

    /// One array per key column of `table`, in its declared order (the order ``UnnestParameters/arrays(for:)``
    /// numbers them in), each read from `rows`' keys by the column's name (``RollupKeyCells``).
    mutating func appendKeys<Key: RollupKeyCells, Value>(of rows: [(key: Key, value: Value)], _ table: RollupTable) {
        for column in table.key {
            switch column.type {
            case .text:
                guard let read = Key.text(column.name) else { preconditionFailure("\(Key.self) holds no \(column.name)") }
                append(rows.map { read($0.key) })
            case .integer, .boolean:
                guard let read = Key.integer(column.name) else { preconditionFailure("\(Key.self) holds no \(column.name)") }
                append(rows.map { read($0.key) })
            }
        }
    }

    /// One array per value column of `rows`, in `fields`' order (their table's declared order,
    /// ``RollupTable/deltaFields``).
    mutating func appendValues<Key>(of rows: [(key: Key, value: RollupAccumulator.Delta)], _ fields: [RollupAccumulator.Delta.Field]) {
        for field in fields { append(rows.map { $0.value[field] }) }
    }

    /// One array per value column of `rows`, in `fields`' order (``RollupTable/outcomeFields``).
    mutating func appendValues<Key>(
        of rows: [(key: Key, value: RollupAccumulator.OutcomeDelta)], _ fields: [RollupAccumulator.OutcomeDelta.Field]
    ) {
        for field in fields { append(rows.map { $0.value[field] }) }
    }
}

extension EventValue {
    fileprivate var text: String? { if case .text(let value) = self { value } else { nil } }
    fileprivate var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    fileprivate var boolean: Bool { if case .boolean(let value) = self { value } else { false } }
}
