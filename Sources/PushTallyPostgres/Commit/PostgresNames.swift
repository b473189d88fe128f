import Logging
import PostgresNIO
import PushTallyCore

/// The PostgreSQL side of ``NameBook``, for every collector of one database.
///
/// An admission holds a transaction advisory lock on its app (in the two-key space, apart from the push and
/// device locks), so collectors admitting names of one app take turns, and each counts the rows the one before
/// it committed: two collectors admitting an app's 64th and 65th ids at once admit exactly one of them.
/// Admissions are rare (at most the bounds per app, ever), so they are their own short transaction ahead of
/// the group commit instead of a prediction the one-statement commit would have to check.
enum PostgresNames {
    /// The advisory lock's first key ("PTAI"); the second is the app's `hashtext`.
    static let lockKey: Int32 = 0x5054_4149

    /// The fold for events carrying `pairs`, admitting their new names first when `admit`. In a transaction
    /// (`inTransaction`) the admission joins it, else it commits on its own.
    static func fold(
        _ pairs: [BoundedNames.Pair], book: NameBook, admit: Bool, inTransaction: Bool, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> NameFold {
        try await fold(pairs, book: book, admit: admit, inTransaction: inTransaction, connection: { connection }, logger: logger)
    }

    /// The same, asking `connection` for the connection only when the fold needs the database (most folds find
    /// everything in the book).
    static func fold(
        _ pairs: [BoundedNames.Pair], book: NameBook, admit: Bool, inTransaction: Bool,
        connection: () async throws -> PostgresConnection, logger: Logger
    ) async throws -> NameFold {
        guard !pairs.isEmpty else { return NameFold(overflows: false) }
        var (apps, unknown) = book.apps(of: pairs.lazy.map(\.pushID))
        if !unknown.isEmpty {
            var registered: [ExactText: String] = [:]
            for (pushID, app) in try await connection().fetch(Queries.SelectPushApps(pushIDs: unknown), logger: logger) {
                registered[ExactText(pushID)] = app ?? ""
            }
            book.rememberApps(registered)
            apps.merge(registered) { _, new in new }
        }
        let unread = book.unread(pairs, apps: apps)
        if !unread.isEmpty {
            for (app, names) in try await read(unread, on: connection(), logger: logger) { book.learn(app: app.text, admitted: names) }
        }
        if admit {
            var slots: [ExactText: [(field: BoundedField, values: [String])]] = [:]
            var order: [ExactText] = []
            for (app, field, values) in book.wanted(pairs, apps: apps) {
                if slots[ExactText(app)] == nil { order.append(ExactText(app)) }
                slots[ExactText(app), default: []].append((field, values))
            }
            for app in order {
                book.learn(
                    app: app.text,
                    admitted: try await self.admit(
                        slots[app]!, app: app.text, bounds: book.bounds, inTransaction: inTransaction, on: connection(),
                        logger: logger))
            }
        }
        return book.fold(pairs, apps: apps)
    }

    /// Every name `apps` admitted (an entry for each, empty when it admitted none).
    private static func read(_ apps: [String], on connection: PostgresConnection, logger: Logger) async throws -> [ExactText: AdmittedNames] {
        var admitted: [ExactText: AdmittedNames] = Dictionary(uniqueKeysWithValues: apps.map { (ExactText($0), AdmittedNames()) })
        for (app, field, value) in try await connection.fetch(Queries.SelectAdmittedNames(apps: apps), logger: logger) {
            guard let field = BoundedField(rawValue: field) else { continue }
            admitted[ExactText(app), default: AdmittedNames()].insert(value, as: field)
        }
        return admitted
    }

    /// Admits each slot's `values` of `app` in their order while the slot has room, and returns everything the
    /// app admitted.
    private static func admit(
        _ slots: [(field: BoundedField, values: [String])], app: String, bounds: NameBounds, inTransaction: Bool,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> AdmittedNames {
        if !inTransaction { try await connection.run("BEGIN", logger: logger) }
        do {
            try await connection.run(Queries.LockAppAdmissions(key: lockKey, app: app), logger: logger)
            // A statement begun after the lock was granted sees every admission committed before it.
            for (field, values) in slots {
                let bound = Int64(bounds[field])
                if field == .action {
                    try await connection.run(Queries.AdmitActionIDs(app: app, actions: values, bound: bound), logger: logger)
                } else {
                    try await connection.run(
                        Queries.AdmitDimensionValues(app: app, dimension: field.rawValue, names: values, bound: bound), logger: logger)
                }
            }
            let admitted = try await read([app], on: connection, logger: logger)[ExactText(app)] ?? AdmittedNames()
            if !inTransaction { try await connection.commit(logger: logger) }
            return admitted
        } catch {
            if !inTransaction { await connection.rollBack(after: error, logger: logger) }
            throw error
        }
    }
}
