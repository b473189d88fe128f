import GRDB
import PushTallyCore

extension Database {
    /// Runs `query` like ``fetch(_:)`` but hands each decoded row to `body` as it is read, for reads too long to
    /// hold at once (a rebuild or an export streams every raw event).
    func forEach<Query: RowQuery>(_ query: Query, _ body: (Query.Row) throws -> Void) throws {
        try RawColumns.forEachRow(query.statement(.sqlite), in: self) { try body(try query.row($0)) }
    }
}
