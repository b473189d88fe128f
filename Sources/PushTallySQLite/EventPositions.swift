import GRDB
import PushTallyCore

/// Keeps raw events' rowids, the event feed's positions (``EventCursor``), rising for good.
///
/// SQLite gives a new row the highest rowid plus one, so deleting the newest events (a prune up to now, or a
/// device forgotten whose event was the last) would hand their rowids out again, behind a feed reader that
/// already passed them. A deletion that lowers the highest rowid notes the old one in `meta` as a floor;
/// the next transaction that stores events finds it and first stores a placeholder at the floor, so its
/// events get the rowids after it, then deletes the placeholder and the floor. Without a floor, which is
/// always but after such a deletion, an insert costs one lookup of `meta` per transaction.
///
/// Send records and FCM deliveries take their positions from the same run (``FeedTablesSchema``): the next one
/// past every raw event's and the floor, which then rises to it, so the next raw event is stored past it too.
enum EventPositions {
    /// Notes the highest rowid before a deletion; pass it to ``keep(highest:in:)`` after.
    static func highest(in db: Database) throws -> Int64? {
        try BoundStatement(db, sql: Queries.EventFloor.selectHighest).fetchInt64()
    }

    /// Leaves a floor when the deletion took the highest rowid `highest` away.
    static func keep(highest: Int64?, in db: Database) throws {
        guard let highest, try self.highest(in: db) ?? 0 < highest else { return }
        try raise(to: highest, in: db)
    }

    /// The position after every one handed out: past the highest rowid and the floor. Pass the last one used to
    /// ``raise(to:in:)`` in the same transaction.
    static func next(in db: Database) throws -> Int64 {
        let floor = try BoundStatement(db, sql: Queries.EventFloor.select).fetchInt64() ?? 0
        return max(try highest(in: db) ?? 0, floor) + 1
    }

    /// Raises the floor to `position` (never lowers it): the next raw event is stored past it.
    static func raise(to position: Int64, in db: Database) throws {
        let raise = try BoundStatement(db, sql: Queries.EventFloor.raise)
        raise.bind(1, String(position))
        try raise.execute()
    }

    /// Before a transaction's first insert of events: the placeholder's rowid when one was stored to lift the
    /// inserts past a floor. Pass it to ``release(_:in:)`` after the inserts, in the same transaction.
    static func claim(in db: Database) throws -> Int64? {
        guard let floor = try BoundStatement(db, sql: Queries.EventFloor.select).fetchInt64() else { return nil }
        try BoundStatement(db, sql: Queries.EventFloor.clear).execute()
        guard try highest(in: db) ?? 0 < floor else { return nil }
        let placeholder = try BoundStatement(db, sql: Queries.EventFloor.insertPlaceholder)
        placeholder.bind(1, floor)
        try placeholder.execute()
        return floor
    }

    /// Deletes the placeholder ``claim(in:)`` stored, once the transaction's events are past it.
    static func release(_ placeholder: Int64?, in db: Database) throws {
        guard let placeholder else { return }
        let delete = try BoundStatement(db, sql: Queries.EventFloor.deletePlaceholder)
        delete.bind(1, placeholder)
        try delete.execute()
    }
}
