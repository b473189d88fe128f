import GRDB
import PushTallyCore

/// The SQLite side of ``NameBook``: reads what the book lacks and admits new names in the caller's
/// transaction, so an admission commits or rolls back with the events that brought it. SQLite's one writer
/// runs admissions one at a time, so the count an admission checks cannot move under it.
enum SQLiteNames {
    /// The fold for events carrying `pairs`, admitting their new names first when `admit` (ingest and import;
    /// pruning and rebuilds only read).
    static func fold(_ pairs: [BoundedNames.Pair], book: NameBook, admit: Bool, in db: Database) throws -> NameFold {
        guard !pairs.isEmpty else { return NameFold(overflows: false) }
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
            let wanted = book.wanted(pairs, apps: apps)
            for (app, field, values) in wanted {
                // The slot's room as the database has it, in this transaction of the one writer: values are
                // admitted in arrival order until it is used up, and the rest are not even tried.
                var room = book.bounds[field] - (try count(app, field, in: db))
                for value in values where room > 0 {
                    try insert(value, app: app, field: field, in: db)
                    if db.changesCount > 0 { room -= 1 }
                }
            }
            for app in Set(wanted.map { ExactText($0.app) }) {
                book.learn(app: app.text, admitted: try admitted(app.text, in: db))
            }
        }
        return book.fold(pairs, apps: apps)
    }

    /// Every app's admitted names and every registered push's app, for a rebuild that streams all raw events.
    static func everything(in db: Database) throws -> NameFold {
        var fold = NameFold()
        for row in try Row.fetchAll(db, sql: AdmittedNameTables.read(apps: "true")) {
            guard let field = BoundedField(rawValue: row[1]) else { continue }
            fold.admitted[ExactText(row[0] as String), default: AdmittedNames()].insert(row[2] as String, as: field)
        }
        for row in try Row.fetchAll(db, sql: "SELECT push_id, app FROM pushes WHERE app IS NOT NULL AND app <> ''") {
            fold.apps[ExactText(row[0] as String)] = row[1] as String
        }
        return fold
    }

    private static func count(_ app: String, _ field: BoundedField, in db: Database) throws -> Int {
        let sql = field == .action
            ? "SELECT COUNT(*) FROM action_ids WHERE app = ?"
            : "SELECT COUNT(*) FROM dimension_values WHERE app = ? AND dimension = \(field.rawValue)"
        return try Int.fetchOne(db.cachedStatement(sql: sql), arguments: [app]) ?? 0
    }

    private static func insert(_ value: String, app: String, field: BoundedField, in db: Database) throws {
        let sql = field == .action
            ? "INSERT INTO action_ids (app, action) VALUES (?, ?) ON CONFLICT DO NOTHING"
            : "INSERT INTO dimension_values (app, dimension, value) VALUES (?, \(field.rawValue), ?) ON CONFLICT DO NOTHING"
        try db.cachedStatement(sql: sql).execute(arguments: [app, value])
    }

    private static func admitted(_ app: String, in db: Database) throws -> AdmittedNames {
        let rows = try Row.fetchAll(db.cachedStatement(sql: AdmittedNameTables.read(apps: "app = ?1")), arguments: [app])
        return AdmittedNames(rows.compactMap { row in BoundedField(rawValue: row[1]).map { ($0, row[2] as String) } })
    }
}
