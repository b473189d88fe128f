/// The read that splits the rows of pushes nobody registered into pages: anonymous clients can name any number
/// of push ids, so their row is summed a page at a time too.
extension SQLDialect {
    /// The `WHERE` clause of the unregistered pushes whose `key` comes after `after` and up to `through`.
    func orphans(key: String, after: String?, through: String?) -> (sql: String, values: [String]) {
        var sql = "WHERE NOT EXISTS (SELECT 1 FROM pushes registered WHERE registered.push_id = \(key))"
        var values: [String] = []
        for (test, value) in [(">", after), ("<=", through)] {
            guard let value else { continue }
            sql += " AND \(key) \(test) ?"
            values.append(value)
        }
        return (sql, values)
    }

    /// The push id at the end of the next page of unregistered pushes after `after` (from the first when `nil`):
    /// the `rows`-th of their `rollup_push` rows; `nil` when fewer are left (the last page).
    package func orphanPageEnd(after: String?, rows: Int) -> RenderedQuery {
        let (clause, values) = orphans(key: "rollup_push.push_id", after: after, through: nil)
        return rendered(
            "SELECT push_id FROM rollup_push \(clause) ORDER BY push_id LIMIT 1 OFFSET ?",
            values.map { QueryValue.text($0) } + [.integer(Int64(max(0, rows - 1)))])
    }
}
