import PostgresNIO
import PushTallyCore

/// Builds one statement's text and its bindings together, so placeholders (`$1`, `$2`…) always match.
struct SQLBuilder {
    /// The protocol's limit of bindings in one statement.
    static let maximumBindings = Int(UInt16.max)

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

    /// Whether a bound NULL's placeholder names its type (``bind(_:)``), for rows of a `VALUES` list outside an
    /// `INSERT` (``guarded(_:call:)``). Off elsewhere: a cast per NULL slows PostgreSQL's parsing of a large
    /// `INSERT … VALUES`, whose columns type its NULLs anyway.
    var typedNulls = false

    /// Binds `value`, or SQL NULL, and returns its placeholder. A bound NULL has no type: with ``typedNulls`` it is
    /// cast to `Value`'s, as a `VALUES` row outside an `INSERT` (``ValuesPart/append(_:gatedBy:to:)``) would make it `text`.
    mutating func bind<Value: PostgresNonThrowingEncodable>(_ value: Value?) -> String {
        guard let value else {
            binds.appendNull()
            return typedNulls ? "$\(binds.count)::\(Value.psqlType.knownSQLName ?? "TEXT")" : "$\(binds.count)"
        }
        binds.append(value)
        return "$\(binds.count)"
    }

    mutating func append(_ sql: String) {
        text += sql
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: text, binds: binds) }

    /// Statements of the form `head VALUES (…), (…) tail`, as many as the bindings limit needs: one round trip
    /// per chunk instead of one per row.
    static func values<Row>(
        _ rows: [Row], columns: Int, head: String, tail: String = "",
        bind: @escaping (Row, inout SQLBuilder) -> [String]
    ) -> [PostgresQuery] {
        ValuesPart(rows, columns: columns, head: head, tail: tail, bind: bind).statements()
    }

    /// The parts as one statement, each a data-modifying `WITH` clause, when their bindings fit: a group
    /// commit's raw rows and every rollup upsert cost one round trip. Otherwise each part on its own, last
    /// first: PostgreSQL runs unreferenced data-modifying `WITH` clauses last to first, and every transaction
    /// must take its row locks table by table in one order, or two could deadlock.
    static func combined(_ parts: [ValuesPart]) -> [PostgresQuery] {
        let parts = parts.filter { $0.rowCount > 0 }
        guard parts.count > 1, parts.reduce(0, { $0 + $1.bindings }) <= maximumBindings else {
            return parts.reversed().flatMap { $0.statements() }
        }
        var builder = SQLBuilder("WITH ")
        for (index, part) in parts.enumerated() {
            builder.append((index == 0 ? "" : ", ") + "w\(index) AS (")
            part.append(0..<part.rowCount, to: &builder)
            builder.append(")")
        }
        builder.append(" SELECT 1")
        return [builder.query]
    }

    /// The name of the guarded statement's first clause, which answers the guard's call as `ok`.
    static let guardName = "g"
    /// The condition every data-modifying clause of a guarded statement puts on its rows: reading the guard's
    /// answer before its first row is what makes the guard run first (PostgreSQL leaves the order of `WITH`
    /// clauses among themselves unspecified, not the order data flows in).
    static let gate = "WHERE (SELECT ok FROM \(guardName))"

    /// The parts as data-modifying `WITH` clauses of one statement behind the guard call `call` writes: a
    /// first clause runs it, each part reads its answer before its first row (``gate``), so it locks and
    /// checks before anything is written, and the main query returns it. `nil` when the bindings do not fit in
    /// one statement.
    static func guarded(_ parts: [ValuesPart], call: (inout SQLBuilder) -> Void) -> PostgresQuery? {
        let parts = parts.filter { $0.rowCount > 0 }
        guard parts.reduce(0, { $0 + $1.bindings }) <= maximumBindings - 16 else { return nil }
        var builder = SQLBuilder("WITH \(guardName) AS MATERIALIZED (SELECT ")
        builder.typedNulls = true
        call(&builder)
        builder.append(" AS ok)")
        for (index, part) in parts.enumerated() {
            builder.append(", w\(index) AS (")
            part.append(0..<part.rowCount, gatedBy: gate, to: &builder)
            builder.append(")")
        }
        builder.append(" SELECT ok FROM \(guardName)")
        return builder.query
    }
}

/// One `head VALUES (…), (…) tail` statement's worth of rows, bound on demand.
struct ValuesPart {
    let rowCount: Int
    let columns: Int
    let head: String
    let tail: String
    private let bindRow: (Int, inout SQLBuilder) -> [String]

    init<Row>(_ rows: [Row], columns: Int, head: String, tail: String = "", bind: @escaping (Row, inout SQLBuilder) -> [String]) {
        self.rowCount = rows.count
        self.columns = columns
        self.head = head
        self.tail = tail
        self.bindRow = { index, builder in bind(rows[index], &builder) }
    }

    var bindings: Int { rowCount * columns }

    /// The rows as `head VALUES (…), (…) tail`, or, with a `gate`, as `head SELECT * FROM (VALUES …) AS v gate
    /// tail` (the bindings carry their types, so the rows are typed as `VALUES` alone would be).
    func append(_ range: Range<Int>, gatedBy gate: String? = nil, to builder: inout SQLBuilder) {
        builder.append(head + (gate == nil ? " VALUES " : " SELECT * FROM (VALUES "))
        for index in range {
            let placeholders = bindRow(index, &builder)
            builder.append((index == range.lowerBound ? "(" : ", (") + placeholders.joined(separator: ", ") + ")")
        }
        if let gate { builder.append(") AS v " + gate) }
        if !tail.isEmpty { builder.append(" " + tail) }
    }

    /// The rows in as few statements of their own as the bindings limit allows.
    func statements() -> [PostgresQuery] {
        let perStatement = max(1, SQLBuilder.maximumBindings / columns)
        return stride(from: 0, to: rowCount, by: perStatement).map { start in
            var builder = SQLBuilder()
            append(start..<min(rowCount, start + perStatement), to: &builder)
            return builder.query
        }
    }
}

extension ValuesPart {
    /// Raw event rows naming `columns` (the shared insert, ``SQLDialect/eventInsert(_:)``); `row` gives each
    /// row's event, whether it is a retry, and its credit.
    init<Row>(_ rows: [Row], columns: [EventColumn], row: @escaping (Row) -> (StoredEvent, Bool, Attribution?)) {
        self.init(rows, columns: columns.count, head: SQLDialect.eventInsert(columns)) { element, sql in
            let (event, duplicate, credit) = row(element)
            return columns.map { column in
                switch column.value(of: event, duplicate: duplicate, credit: credit) {
                case .text(let value): sql.bind(value)
                case .integer(let value): sql.bind(value)
                case .boolean(let value): sql.bind(value)
                }
            }
        }
    }
}
