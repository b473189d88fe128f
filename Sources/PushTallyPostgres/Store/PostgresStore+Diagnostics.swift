import Foundation
import PostgresNIO

extension PostgresStore {
    /// Runs a read-only query and returns every value as text, booleans as `1`/`0` and bytea in hex, as the
    /// SQLite store's `textRows` does: what tests and diagnostics compare across stores.
    package func textRows(_ sql: String) async throws -> [[String?]] {
        var rows: [[String?]] = []
        for row in try await query(PostgresQuery(unsafeSQL: sql)) {
            rows.append(try row.map { cell -> String? in
                guard cell.bytes != nil else { return nil }
                switch cell.dataType {
                case .int2, .int4, .int8: return String(try cell.decode(Int64.self))
                case .bool: return try cell.decode(Bool.self) ? "1" : "0"
                case .bytea: return try cell.decode(ByteBuffer.self).readableBytesView.map { String(format: "%02x", $0) }.joined()
                case .float4, .float8: return String(try cell.decode(Double.self))
                default: return try cell.decode(String.self)
                }
            })
        }
        return rows
    }

    /// The server's `synchronous_commit` as this store's connections see it.
    package func synchronousCommit() async throws -> String {
        try await textRows("SHOW synchronous_commit").first?.first.flatMap { $0 } ?? ""
    }
}
