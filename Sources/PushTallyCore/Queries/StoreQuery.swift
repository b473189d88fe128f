import Foundation

/// The store's statements, one type a file named for what it does: those both engines run under
/// `Queries/<area>/`, one engine's own under that engine's `SQL/<area>/`. Each is a ``StoreQuery``.
package enum Queries {}

/// A statement of the store's: its SQL, with a `?` where each of its values goes, and those values in order.
///
/// ``sql(_:)`` spells the statement for a dialect; where the engines' SQL differs, the difference is written in
/// that one place. ``statement(_:)`` renders it with the engine's placeholders (`?` for SQLite, `$1`, `$2`, …
/// for PostgreSQL), so a `?` may appear in the text only as a placeholder. A statement whose caller needs to
/// know whether it changed anything ends with `RETURNING`, which both engines answer with a row per row
/// changed.
package protocol StoreQuery: Sendable {
    /// The statement as `dialect` spells it, a `?` for each of ``values`` in order.
    func sql(_ dialect: SQLDialect) -> String
    /// The values the placeholders stand for, in order.
    var values: [QueryValue] { get }
}

/// A query whose rows the caller reads, each decoded into a ``Row`` by column position.
package protocol RowQuery: StoreQuery {
    associatedtype Row: Sendable
    /// One row, from its columns by position (0 first).
    func row(_ columns: some QueryRow) throws -> Row
}

/// A value bound to a statement's placeholder. Each case carries its type, so a `NULL` is bound as a typed
/// `NULL` (PostgreSQL infers a parameter's type from what it is bound with).
package enum QueryValue: Sendable, Hashable {
    case text(String?)
    case integer(Int64?)
    case real(Double?)
    case bytes(Data)
    /// A list (``SQLDialect/contains(_:)``, ``SQLDialect/zipped(_:)``): SQLite reads it as JSON text,
    /// PostgreSQL as an array.
    case integers([Int64])
    case texts([String])
}

/// A statement rendered for one engine: its SQL in the engine's placeholders and the values they stand for, in
/// order. Every statement an engine runs through its runner comes to it in this one shape.
package struct RenderedQuery: Sendable, Hashable {
    package let sql: String
    package let values: [QueryValue]
}

extension StoreQuery {
    /// The statement with `dialect`'s placeholders and its values.
    package func statement(_ dialect: SQLDialect) -> RenderedQuery {
        dialect.rendered(sql(dialect), values)
    }
}

extension SQLDialect {
    /// `sql` with each `?` replaced by this dialect's placeholder for its position (SQLite keeps `?`).
    package func placeholders(_ sql: String) -> String {
        guard self == .postgres else { return sql }
        var rendered = ""
        var index = 0
        for character in sql {
            if character == "?" {
                rendered += "$\(index + 1)"
                index += 1
            } else {
                rendered.append(character)
            }
        }
        return rendered
    }

    /// A table of rows `x(c0, c1, …)` whose columns are the lists bound at the next placeholders, one of each
    /// type in `types` (``QueryValue/texts(_:)``, ``QueryValue/integers(_:)``, all of one length): PostgreSQL's
    /// `unnest` of arrays, SQLite's `json_each` of each list joined by position.
    package func zipped(_ types: [ColumnType]) -> String {
        let columns = types.indices.map { "c\($0)" }
        if self == .postgres {
            let lists = types.map { "?::\($0 == .text ? "text" : "bigint")[]" }
            return "unnest(\(lists.joined(separator: ", "))) AS x(\(columns.joined(separator: ", ")))"
        }
        let select = types.indices.map { "l\($0).value AS c\($0)" }.joined(separator: ", ")
        let from = types.indices.map { $0 == 0 ? "json_each(?) l0" : "JOIN json_each(?) l\($0) ON l\($0).key = l0.key" }
        return "(SELECT \(select) FROM \(from.joined(separator: " "))) AS x"
    }

    /// `column` is one of the list bound at the next placeholder (a ``QueryValue/integers(_:)``): SQLite reads the
    /// list from its JSON text, PostgreSQL binds it as one array.
    package func contains(_ column: String) -> String {
        self == .sqlite ? "\(column) IN (SELECT value FROM json_each(?))" : "\(column) = ANY(?::bigint[])"
    }
}
