/// The one statement both engines run for ``ReportReader/collapsePeers(_:)``, in their own placeholders.
///
/// A superseding push may belong to any campaign, so the statement reads every push that shares an app and
/// collapse id with a push in scope, not just the pushes in scope. With a campaign or push in scope it starts
/// from those pushes and looks their groups up by the `(app, collapse_id, sent_at)` index.
package enum CollapsePeersQuery {
    /// The statement and the values its placeholders stand for, in order.
    package static func sql(_ scope: PushScope, dialect: SQLDialect) -> (sql: String, values: [String]) {
        let columns = "q.push_id, q.app, q.collapse_id, q.sent_at, q.expiration"
        let complete = "q.app IS NOT NULL AND q.collapse_id IS NOT NULL AND q.sent_at IS NOT NULL"
        let seed: (test: String, values: [String])
        switch scope {
        case .all: return ("SELECT \(columns) FROM pushes q WHERE \(complete)", [])
        // Nobody registered them: no app, no collapse id.
        case .orphans: return ("SELECT \(columns) FROM pushes q WHERE 1 = 0", [])
        case .push(let id): seed = ("p.push_id = \(dialect.placeholder(0))", [id])
        case .campaign(let name): seed = ("p.campaign = \(dialect.placeholder(0))", [name])
        case .campaigns(let first, let last): seed = (dialect.campaignsBetween("p.campaign", first: 0, last: 1), [first, last])
        }
        return (
            """
            SELECT DISTINCT \(columns) FROM pushes p
            JOIN pushes q ON q.app = p.app AND q.collapse_id = p.collapse_id
            WHERE \(seed.test) AND \(complete)
            """,
            seed.values
        )
    }
}
