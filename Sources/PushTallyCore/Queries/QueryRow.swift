import Foundation

/// One row of a query as its engine hands it over, its columns by position (0 first). Queries decode through it
/// (``RowQuery/row(_:)``), so the order of a statement's columns and their meaning stand in one place.
package protocol QueryRow {
    func int64(_ column: Int) throws -> Int64
    func optionalInt64(_ column: Int) throws -> Int64?
    func text(_ column: Int) throws -> String
    func optionalText(_ column: Int) throws -> String?
    /// A flag: SQLite stores it as 0 or 1, PostgreSQL as `BOOLEAN`.
    func boolean(_ column: Int) throws -> Bool
    func double(_ column: Int) throws -> Double
    func optionalDouble(_ column: Int) throws -> Double?
    /// A `BLOB` (SQLite) or `BYTEA` (PostgreSQL).
    func bytes(_ column: Int) throws -> Data
}
