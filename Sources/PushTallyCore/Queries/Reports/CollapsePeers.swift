extension SQLDialect {
    /// The pushes sharing an app and collapse id with those `filter` selects (``ReportReader/collapsePeers(_:)``).
    ///
    /// A superseding push may belong to any campaign, so the statement reads every push that shares an app and
    /// collapse id with a push in scope, not just the pushes in scope. With a campaign or push in scope it starts
    /// from those pushes and looks their groups up by the `(app, collapse_id, sent_at)` index.
    package func collapsePeers(_ filter: ReportFilter) -> RenderedQuery {
        let columns = "q.push_id, q.app, q.collapse_id, q.sent_at, q.expiration"
        let complete = "q.app IS NOT NULL AND q.collapse_id IS NOT NULL AND q.sent_at IS NOT NULL"
        let seed: (test: String, values: [String])
        switch PushScope(filter) {
        case .all: return rendered("SELECT \(columns) FROM pushes q WHERE \(complete)", [])
        // Nobody registered them: no app, no collapse id.
        case .orphans: return rendered("SELECT \(columns) FROM pushes q WHERE 1 = 0", [])
        case .push(let id): seed = ("p.push_id = ?", [id])
        case .campaign(let name): seed = ("p.campaign = ?", [name])
        case .campaigns(let first, let last): seed = (campaignsBetween("p.campaign"), [first, last])
        }
        return rendered(
            """
            SELECT DISTINCT \(columns) FROM pushes p
            JOIN pushes q ON q.app = p.app AND q.collapse_id = p.collapse_id
            WHERE \(seed.test) AND \(complete)
            """,
            seed.values.map { QueryValue.text($0) })
    }
}

extension ReportRowDecoding {
    /// A row of ``SQLDialect/collapsePeers(_:)``.
    package static func collapsePush<Row: ReportRow>(_ row: Row) throws -> CollapsePush {
        CollapsePush(
            pushID: try row.text(0), app: try row.text(1), collapseID: try row.text(2), sentAtMillis: try row.int64(3),
            expirationMillis: try row.optionalInt64(4))
    }
}
