/// The read that splits a report into pages of campaigns (``CampaignPager``), in the byte order of their names
/// on both engines: the order SQLite's `BINARY` collation keeps, and the order of Swift's comparison of the NFC
/// text names are stored as, so the rows of one page sort before those of the next.
extension SQLDialect {
    /// `campaign` compared in byte order: PostgreSQL compares by its database's collation unless told, and has
    /// an index in the `"C"` collation for this (``PostgresSchema``'s `pushes_by_campaign_bytes`).
    func campaignBytes(_ column: String = "campaign") -> String { self == .sqlite ? column : "\(column) COLLATE \"C\"" }

    /// The condition that `column` lies between the next two values, both included.
    func campaignsBetween(_ column: String = "campaign") -> String {
        "\(campaignBytes(column)) >= ? AND \(campaignBytes(column)) <= ?"
    }

    /// The names of up to `limit` campaigns with a registered push, in byte order, after `after` (from the
    /// first when `nil`).
    package func campaignNames(after: String?, limit: Int) -> RenderedQuery {
        let order = "ORDER BY \(campaignBytes()) LIMIT ?"
        guard let after else {
            return rendered("SELECT DISTINCT \(campaignBytes()) FROM pushes \(order)", [.integer(Int64(limit))])
        }
        return rendered(
            "SELECT DISTINCT \(campaignBytes()) FROM pushes WHERE \(campaignBytes()) > ? \(order)", [.text(after), .integer(Int64(limit))])
    }
}
