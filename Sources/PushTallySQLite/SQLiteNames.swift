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
            let lookup = try db.cachedStatement(sql: Queries.SelectPushApp.sql)
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
        for (app, field, name) in try db.fetch(Queries.SelectAdmittedNames()) {
            guard let field else { continue }
            fold.admitted[ExactText(app), default: AdmittedNames()].insert(name, as: field)
        }
        for (pushID, app) in try db.fetch(Queries.SelectRegisteredApps()) {
            fold.apps[ExactText(pushID)] = app
        }
        return fold
    }

    private static func count(_ app: String, _ field: BoundedField, in db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: Queries.CountAdmittedNames.sql(field)), arguments: [app]) ?? 0
    }

    private static func insert(_ value: String, app: String, field: BoundedField, in db: Database) throws {
        try db.cachedStatement(sql: Queries.InsertAdmittedName.sql(field)).execute(arguments: [app, value])
    }

    private static func admitted(_ app: String, in db: Database) throws -> AdmittedNames {
        let rows = try Row.fetchAll(db.cachedStatement(sql: Queries.SelectAdmittedNames.oneAppSQL), arguments: [app])
        return AdmittedNames(rows.compactMap { row in BoundedField(rawValue: row[1]).map { ($0, row[2] as String) } })
    }
}
