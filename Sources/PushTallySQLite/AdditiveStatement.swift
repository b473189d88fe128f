import GRDB
import PushTallyCore

/// Adds one row's values to a rollup table: an `UPDATE` of the stored row first, the table's upsert only when
/// no row was stored.
///
/// Most of a commit's rows add to rows an earlier commit stored (a push's counts and its time-to-display
/// histogram, its busy buckets). SQLite runs an upsert by building the whole new row, finding the stored one,
/// then updating it; the `UPDATE` finds the row and rewrites it once, which matters most for the wide
/// histogram rows. Both statements take the same parameters in the same places (the key columns, then the
/// values), so one binding closure serves either. Only the writer's connection writes rollups, inside one
/// transaction, so no row can appear between the two. The upsert is prepared the first time a row is missing:
/// most statements of a running collector only ever add.
final class AdditiveStatement {
    private let update: BoundStatement
    private let sql: AdditiveSQL
    private let db: Database
    private var upsert: BoundStatement?

    /// Prepares `sql`'s `UPDATE` on `db`, the connection every ``add(_:)`` runs on.
    init(sql: AdditiveSQL, in db: Database) throws {
        update = try BoundStatement(db, sql: sql.update)
        self.sql = sql
        self.db = db
    }

    /// Binds the row with `bind` and adds it.
    func add(_ bind: (BoundStatement) -> Void) throws {
        bind(update)
        try update.execute()
        guard update.changes == 0 else { return }
        let upsert = try self.upsert ?? BoundStatement(db, sql: sql.upsert)
        self.upsert = upsert
        bind(upsert)
        try upsert.execute()
    }
}

/// The two statements of an ``AdditiveStatement``, rendered from the table's declaration (``RollupTable``).
struct AdditiveSQL: Sendable {
    /// `UPDATE table SET value = value + ?n, … WHERE key = ?1 AND …`, each column's ``RollupTable/Merge``
    /// applied as the upsert applies it.
    let update: String
    /// The table's upsert (``SQLDialect/upsert(_:into:values:)``), for a row not stored yet.
    let upsert: String

    init(_ table: RollupTable, into target: RollupTarget, values: [RollupTable.Column]? = nil) {
        let values = values ?? table.values
        let key = table.key
        let updates = values.enumerated().map { offset, column in
            let (old, new) = (column.name, "?\(key.count + offset + 1)")
            return switch column.merge {
            case .add: "\(old) = \(old) + \(new)"
            case .least: "\(old) = min(\(old), \(new))"
            case .greatest: "\(old) = max(\(old), \(new))"
            }
        }
        let match = key.enumerated().map { offset, column in "\(column.name) = ?\(offset + 1)" }
        update = "UPDATE \(table.name(in: target)) SET \(updates.joined(separator: ", ")) WHERE \(match.joined(separator: " AND "))"
        upsert = SQLDialect.sqlite.upsert(table, into: target, values: values).singleRow
    }
}
