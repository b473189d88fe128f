import Logging
import PostgresNIO
import PushTallyCore

/// The PostgreSQL side of ``ActionIDBook``, for every collector of one database.
///
/// An admission holds a transaction advisory lock on its app (in the two-key space, apart from the push and
/// device locks), so collectors admitting ids of one app take turns, and each counts the rows the one before
/// it committed: two collectors admitting an app's 64th and 65th ids at once admit exactly one of them.
/// Admissions are rare (at most the bound per app, ever), so they are their own short transaction ahead of
/// the group commit instead of a prediction the one-statement commit would have to check.
enum PostgresActionIDs {
    /// The advisory lock's first key ("PTAI"); the second is the app's `hashtext`.
    static let lockKey: Int32 = 0x5054_4149

    /// The fold for events carrying `pairs`, admitting their new ids first when `admit`. In a transaction
    /// (`inTransaction`) the admission joins it, else it commits on its own.
    static func fold(
        _ pairs: [ActionIDs.Pair], book: ActionIDBook, admit: Bool, inTransaction: Bool, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> ActionFold {
        guard !pairs.isEmpty else { return ActionFold() }
        var (apps, unknown) = book.apps(of: pairs.lazy.map(\.pushID))
        if !unknown.isEmpty {
            var registered: [ExactText: String] = [:]
            for (pushID, app) in try await connection.run(
                "SELECT push_id, app FROM pushes WHERE push_id = ANY(\(unknown)::text[])", logger: logger
            ).decode((String, String?).self) {
                registered[ExactText(pushID)] = app ?? ""
            }
            book.rememberApps(registered)
            apps.merge(registered) { _, new in new }
        }
        let unread = book.unread(pairs, apps: apps)
        if !unread.isEmpty {
            var admitted: [ExactText: [String]] = Dictionary(uniqueKeysWithValues: unread.map { (ExactText($0), []) })
            for (app, action) in try await connection.run(
                "SELECT app, action FROM action_ids WHERE app = ANY(\(unread)::text[])", logger: logger
            ).decode((String, String).self) {
                admitted[ExactText(app), default: []].append(action)
            }
            for (app, actions) in admitted { book.learn(app: app.text, admitted: actions) }
        }
        if admit {
            for (app, actions) in book.wanted(pairs, apps: apps) {
                book.learn(
                    app: app,
                    admitted: try await self.admit(actions, app: app, bound: book.bound, inTransaction: inTransaction, on: connection, logger: logger))
            }
        }
        return book.fold(pairs, apps: apps)
    }

    /// Admits `actions` of `app` in their order while the app has room, and returns everything it admitted.
    private static func admit(
        _ actions: [String], app: String, bound: Int, inTransaction: Bool, on connection: PostgresConnection, logger: Logger
    ) async throws -> [String] {
        if !inTransaction { try await connection.run("BEGIN", logger: logger) }
        do {
            try await connection.run("SELECT pg_advisory_xact_lock(\(lockKey), hashtext(\(app)))", logger: logger)
            // A statement begun after the lock was granted sees every admission committed before it.
            try await connection.run(
                """
                INSERT INTO action_ids (app, action)
                SELECT \(app), u.a FROM unnest(\(actions)::text[]) WITH ORDINALITY AS u(a, o)
                WHERE NOT EXISTS (SELECT 1 FROM action_ids x WHERE x.app = \(app) AND x.action = u.a)
                ORDER BY u.o LIMIT GREATEST(\(Int64(bound)) - (SELECT count(*) FROM action_ids WHERE app = \(app)), 0)
                ON CONFLICT DO NOTHING
                """, logger: logger)
            let admitted = try await connection.run("SELECT action FROM action_ids WHERE app = \(app)", logger: logger)
                .decode(String.self)
            if !inTransaction { try await connection.commit(logger: logger) }
            return admitted
        } catch {
            if !inTransaction { await connection.rollBack(after: error, logger: logger) }
            throw error
        }
    }
}
