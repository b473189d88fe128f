import Foundation
import PostgresNIO
import PushTallyCore

/// A PostgreSQL row of a report read, its cells by position for ``ReportRow``'s decoding.
struct PostgresReportRow: ReportRow {
    let cells: PostgresRandomAccessRow

    init(_ row: PostgresRow) {
        cells = row.makeRandomAccess()
    }

    func int64(_ column: Int) throws -> Int64 { try cells[column].decode(Int64.self) }
    func optionalInt64(_ column: Int) throws -> Int64? { try cells[column].decode(Int64?.self) }
    func text(_ column: Int) throws -> String { try cells[column].decode(String.self) }
    func optionalText(_ column: Int) throws -> String? { try cells[column].decode(String?.self) }
    func boolean(_ column: Int) throws -> Bool { try cells[column].decode(Bool.self) }
    func double(_ column: Int) throws -> Double { try cells[column].decode(Double.self) }
    func optionalDouble(_ column: Int) throws -> Double? { try cells[column].decode(Double?.self) }
    func bytes(_ column: Int) throws -> Data { Data(buffer: try cells[column].decode(ByteBuffer.self)) }

    /// The histogram is one `ARRAY` value (``SQLDialect/histogram(_:)``).
    func withHistogram(at column: Int, _ body: ((Int) -> Int64) throws -> Void) throws {
        let counts = try cells[column].decode([Int64].self)
        try body { counts[$0] }
    }
}

extension PostgresQuery {
    /// `statement` with its values bound in order.
    init(_ statement: RenderedQuery) {
        var binds = PostgresBindings()
        for value in statement.values {
            switch value {
            case .text(let text): binds.append(text)
            case .integer(let integer): binds.append(integer)
            case .real(let real): binds.append(real)
            case .bytes(let bytes): binds.append(ByteBuffer(bytes: bytes))
            case .integers(let list): binds.append(list)
            case .texts(let list): binds.append(list)
            }
        }
        self.init(unsafeSQL: statement.sql, binds: binds)
    }
}
