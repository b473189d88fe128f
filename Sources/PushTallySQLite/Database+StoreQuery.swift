import Foundation
import GRDB
import PushTallyCore

extension Database {
    /// Runs `query` (rendered for SQLite, its statement cached by the connection) and returns its rows, decoded
    /// by the query.
    func fetch<Query: RowQuery>(_ query: Query) throws -> [Query.Row] {
        var rows: [Query.Row] = []
        try forEachRow(of: query) { rows.append(try query.row($0)) }
        return rows
    }

    /// Runs `query` and returns how many rows it returned: for a statement ending with `RETURNING`, how many it
    /// changed.
    @discardableResult
    func run(_ query: some StoreQuery) throws -> Int {
        var count = 0
        try forEachRow(of: query) { _ in count += 1 }
        return count
    }

    private func forEachRow(of query: some StoreQuery, _ body: (RawColumns) throws -> Void) throws {
        try RawColumns.forEachRow(query.statement(.sqlite), in: self, body)
    }
}

extension QueryValue {
    /// The value as SQLite stores it; a list is bound as its JSON text, which `json_each` reads.
    var databaseValue: DatabaseValue {
        switch self {
        case .text(let text): text.databaseValue
        case .integer(let integer): integer.databaseValue
        case .real(let real): real.databaseValue
        case .bytes(let bytes): bytes.databaseValue
        case .integers(let list): ("[" + list.map(String.init).joined(separator: ",") + "]").databaseValue
        case .texts(let list): ("[" + list.map(JSONText.quoted).joined(separator: ",") + "]").databaseValue
        }
    }
}
