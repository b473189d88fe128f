import GRDB
import PushTallyCore

/// The SQLite side of ``ActionIDBook``: reads what the book lacks and admits new ids in the caller's
/// transaction, so an admission commits or rolls back with the events that brought it. SQLite's one writer
/// runs admissions one at a time, so the count an admission checks cannot move under it.
enum SQLiteActionIDs {
    /// The fold for events carrying `pairs`, admitting their new ids first when `admit` (ingest and import;
    /// pruning and rebuilds only read).
    static func fold(_ pairs: [ActionIDs.Pair], book: ActionIDBook, admit: Bool, in db: Database) throws -> ActionFold {
        guard !pairs.isEmpty else { return ActionFold() }
        var (apps, unknown) = book.apps(of: pairs.lazy.map(\.pushID))
        if !unknown.isEmpty {
            let lookup = try db.cachedStatement(sql: "SELECT app FROM pushes WHERE push_id = ?")
            var registered: [ExactText: String] = [:]
            for pushID in unknown {
                if let row = try Row.fetchOne(lookup, arguments: [pushID]) { registered[ExactText(pushID)] = row[0] as String? ?? "" }
            }
            book.rememberApps(registered)
            apps.merge(registered) { _, new in new }
        }
        for app in book.unread(pairs, apps: apps) {
            book.learn(app: app, admitted: try admitted(app, in: db))
        }
        if admit {
            let insert = try db.cachedStatement(sql: """
                INSERT INTO action_ids (app, action)
                SELECT ?, ? WHERE (SELECT COUNT(*) FROM action_ids WHERE app = ?) < ? ON CONFLICT DO NOTHING
                """)
            for (app, actions) in book.wanted(pairs, apps: apps) {
                for action in actions { try insert.execute(arguments: [app, action, app, book.bound]) }
                book.learn(app: app, admitted: try admitted(app, in: db))
            }
        }
        return book.fold(pairs, apps: apps)
    }

    /// Every app's admitted ids and every registered push's app, for a rebuild that streams all raw events.
    static func everything(in db: Database) throws -> ActionFold {
        var fold = ActionFold()
        for row in try Row.fetchAll(db, sql: "SELECT app, action FROM action_ids") {
            fold.admitted[ExactText(row[0] as String), default: []].insert(ExactText(row[1] as String))
        }
        for row in try Row.fetchAll(db, sql: "SELECT push_id, app FROM pushes WHERE app IS NOT NULL AND app <> ''") {
            fold.apps[ExactText(row[0] as String)] = row[1] as String
        }
        return fold
    }

    private static func admitted(_ app: String, in db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT action FROM action_ids WHERE app = ?", arguments: [app])
    }
}
