/// The reads that split a report into pages of campaigns (``CampaignPager``), in the byte order of their names
/// on both engines: the order SQLite's `BINARY` collation keeps, and the order of Swift's comparison of the NFC
/// text names are stored as, so the rows of one page sort before those of the next.
extension SQLDialect {
    /// `campaign` compared in byte order: PostgreSQL compares by its database's collation unless told, and has
    /// an index in the `"C"` collation for this (``PostgresSchema``'s `pushes_by_campaign_bytes`).
    func campaignBytes(_ column: String = "campaign") -> String { self == .sqlite ? column : "\(column) COLLATE \"C\"" }

    /// The condition that `column` lies between the values of placeholders `first` and `last`, both included.
    func campaignsBetween(_ column: String = "campaign", first: Int, last: Int) -> String {
        "\(campaignBytes(column)) >= \(placeholder(first)) AND \(campaignBytes(column)) <= \(placeholder(last))"
    }

    /// The names of up to `limit` campaigns with a registered push, in byte order, after `after` (from the
    /// first when `nil`).
    package func campaignNames(after: String?, limit: Int) -> RenderedQuery {
        let order = "ORDER BY \(campaignBytes()) LIMIT \(placeholder(after == nil ? 0 : 1))"
        guard let after else {
            return RenderedQuery(sql: "SELECT DISTINCT \(campaignBytes()) FROM pushes \(order)", values: [.integer(Int64(limit))])
        }
        return RenderedQuery(
            sql: "SELECT DISTINCT \(campaignBytes()) FROM pushes WHERE \(campaignBytes()) > \(placeholder(0)) \(order)",
            values: [.text(after), .integer(Int64(limit))])
    }
}

/// The reads that split the rows of pushes nobody registered into pages: anonymous clients can name any number
/// of push ids, so their row is summed a page at a time too.
extension SQLDialect {
    /// The `WHERE` clause of the unregistered pushes whose `key` comes after `after` and up to `through`.
    func orphans(key: String, after: String?, through: String?) -> (sql: String, values: [String]) {
        var sql = "WHERE NOT EXISTS (SELECT 1 FROM pushes registered WHERE registered.push_id = \(key))"
        var values: [String] = []
        for (test, value) in [(">", after), ("<=", through)] {
            guard let value else { continue }
            sql += " AND \(key) \(test) \(placeholder(values.count))"
            values.append(value)
        }
        return (sql, values)
    }

    /// The push id at the end of the next page of unregistered pushes after `after` (from the first when `nil`):
    /// the `rows`-th of their `rollup_push` rows; `nil` when fewer are left (the last page).
    package func orphanPageEnd(after: String?, rows: Int) -> RenderedQuery {
        let (clause, values) = orphans(key: "rollup_push.push_id", after: after, through: nil)
        return RenderedQuery(
            sql: """
                SELECT push_id FROM rollup_push \(clause) ORDER BY push_id \
                LIMIT 1 OFFSET \(placeholder(values.count))
                """,
            values: values.map { QueryValue.text($0) } + [.integer(Int64(max(0, rows - 1)))])
    }
}
